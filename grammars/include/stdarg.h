/*
 * stdarg.h -- staticroof stub.
 *
 * va_list is a plain pointer type (see _staticroof_types.h).  The macros
 * only have to be syntactically valid C for the analyzer; they do not
 * describe any real calling convention.
 */
#ifndef _STATICROOF_STDARG_H
#define _STATICROOF_STDARG_H

#include "_staticroof_types.h"

#define va_start(ap, last)  ((void)((ap) = (va_list)&(last)))
#define va_arg(ap, type)    (*(type *)(ap))
#define va_end(ap)          ((void)(ap))
#define va_copy(dest, src)  ((void)((dest) = (src)))

#endif /* _STATICROOF_STDARG_H */
