/* staticroof stub: cooperative groups are host/device C++ the analysis does not model. */
#include <cuda_runtime.h>
