/* sys/types.h -- staticroof stub (POSIX); types are in the shared header. */
#ifndef _STATICROOF_SYS_TYPES_H
#define _STATICROOF_SYS_TYPES_H

#include "../_staticroof_types.h"

#endif /* _STATICROOF_SYS_TYPES_H */
