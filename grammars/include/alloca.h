/* alloca.h -- staticroof stub.  alloca is modelled as an ordinary function. */
#ifndef _STATICROOF_ALLOCA_H
#define _STATICROOF_ALLOCA_H

#include "_staticroof_types.h"

void *alloca(size_t size);

#endif /* _STATICROOF_ALLOCA_H */
