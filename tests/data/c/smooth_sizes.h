/* smooth_sizes.h -- the problem size, fixed here (an include guard, no #ifndef N) */
#ifndef SMOOTH_SIZES_H
#define SMOOTH_SIZES_H

#define N 1024

#endif
