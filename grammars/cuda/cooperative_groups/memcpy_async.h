/* staticroof stub: cooperative_groups/memcpy_async.h. cg:: calls are rewritten by the front end (frontends/coop.py). */
#include <cooperative_groups.h>
