/* staticroof stub: the warp matrix functions (nvcuda::wmma).  The front end knows them from
 * grammars/cuda.toml (kind "wmma") and frontends/wmma.py; only the names code spells appear here. */
#ifndef STATICROOF_MMA_H
#define STATICROOF_MMA_H
#include <cuda_fp16.h>
#endif
