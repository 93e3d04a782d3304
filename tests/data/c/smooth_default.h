/* smooth_default.h -- a default the build may override with -DN=... */
#ifndef N
#define N 1024
#endif

#ifdef LARGE_DATASET
#define STEPS 4
#else
#define STEPS 2
#endif
