/* staticroof stub: cooperative groups.  Group objects and their member calls are rewritten by the
 * front end into the builtins they stand for (frontends/coop.py), so nothing is declared here. */
#include <cuda_runtime.h>
