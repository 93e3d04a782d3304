/* staticroof stub: __half arithmetic intrinsics are in grammars/cuda.toml. */
#ifndef STATICROOF_CUDA_FP16_H
#define STATICROOF_CUDA_FP16_H
#include <cuda_runtime.h>
#endif
