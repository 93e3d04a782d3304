/* malloc.h -- staticroof stub (non-standard allocation interface). */
#ifndef _STATICROOF_MALLOC_H
#define _STATICROOF_MALLOC_H

#include "stdlib.h"

void *memalign(size_t alignment, size_t size);
void *pvalloc(size_t size);
size_t malloc_usable_size(void *ptr);
int malloc_trim(size_t pad);

#endif /* _STATICROOF_MALLOC_H */
