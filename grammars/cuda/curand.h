/* staticroof stub: the host API of cuRAND (host code is not analyzed). */
#include <curand_kernel.h>
typedef int curandGenerator_t;
typedef int curandStatus_t;
#define CURAND_STATUS_SUCCESS 0
