/* stddef.h -- staticroof stub (C99/C11). */
#ifndef _STATICROOF_STDDEF_H
#define _STATICROOF_STDDEF_H

#include "_staticroof_types.h"

/* size_t, ptrdiff_t, wchar_t, max_align_t and NULL come from the shared
 * header. */
#define offsetof(type, member) ((size_t)&(((type *)0)->member))

#endif /* _STATICROOF_STDDEF_H */
