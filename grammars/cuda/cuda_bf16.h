/* staticroof stub: __nv_bfloat16 intrinsics are in grammars/cuda.toml. */
#ifndef STATICROOF_CUDA_BF16_H
#define STATICROOF_CUDA_BF16_H
#include <cuda_fp16.h>
#endif
