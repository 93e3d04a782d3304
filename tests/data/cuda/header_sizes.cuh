/* header_sizes.cuh -- sizes shared by host and device code */
#pragma once

#ifndef N
#define N 1024
#endif

#define BLOCK 256
