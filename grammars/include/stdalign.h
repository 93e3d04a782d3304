/* stdalign.h -- staticroof stub (C11). */
#ifndef _STATICROOF_STDALIGN_H
#define _STATICROOF_STDALIGN_H

#define alignas _Alignas
#define alignof _Alignof
#define __alignas_is_defined 1
#define __alignof_is_defined 1

#endif /* _STATICROOF_STDALIGN_H */
