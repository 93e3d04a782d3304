/* memory.h -- staticroof stub (legacy name for the string.h functions). */
#ifndef _STATICROOF_MEMORY_H
#define _STATICROOF_MEMORY_H

#include "string.h"

#endif /* _STATICROOF_MEMORY_H */
