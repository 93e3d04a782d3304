/* staticroof stub: the CUDA runtime API is host code the analysis never parses; only the
 * declarations kernels use appear here.  Builtins (threadIdx, __syncthreads, vector types) are
 * known to the front end from grammars/cuda.toml. */
#ifndef STATICROOF_CUDA_RUNTIME_H
#define STATICROOF_CUDA_RUNTIME_H
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
#define cudaSuccess 0
#define cudaMemcpyHostToDevice 1
#define cudaMemcpyDeviceToHost 2
#define cudaMemcpyDeviceToDevice 3
#define CUDART_PI_F 3.141592654f
#define CUDART_INF_F ((float)1e40)
#endif
