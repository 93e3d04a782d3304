/* staticroof stub: cuda_awbarrier.h.  The asynchronous copy API (cuda::memcpy_async, cuda::pipeline, cuda::barrier,
 * __pipeline_memcpy_async) is rewritten by the front end into the reads and shared-memory writes
 * it makes (frontends/cuda/asynccopy.py), so nothing is declared here. */
#include <cuda_runtime.h>
