/* staticroof trace driver helpers: argument parsing and zeroed, aligned buffers for the kernel. */
#include <stdlib.h>
#include <string.h>

unsigned long __sr_array_bytes;

long __sr_arg(char **argv, int k) { return atol(argv[k]); }

void *__sr_alloc(unsigned long bytes) {
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) abort();
    memset(p, 0, bytes);
    return p;
}
