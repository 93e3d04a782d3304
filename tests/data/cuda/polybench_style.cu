/* polybench_style.cu -- linear-algebra and stencil kernels written the way the GPU ports of
 * PolyBench are: sizes are #defines, every kernel takes only pointers, the 2-D kernels are
 * launched with dim3 block(32, 8) and a grid of (size_t)ceil((float)N / (float)block.x) blocks,
 * the host times each kernel with gettimeofday and checks against a CPU version.  The sizes are
 * deliberately not multiples of the block (NI = 1000 = 31*32 + 8, NJ = 1000 = 125*8): the guards
 * bound the work, so every count is the size's, whatever the grid rounds up to.
 *
 * Derivations (fp32 throughout; sizes as #defined; "one FMA" = a multiply and an add = 2 FLOP):
 *   gemm_kernel    C[i][j] *= BETA; for k: C[i][j] += ALPHA * A[i][k] * B[k][j]   (i < NI, j < NJ)
 *                  W = NI*NJ*(1 + 3*NK); Q = 4*(NI*NK + NK*NJ) reads + 4*NI*NJ read and written
 *                    = 4*NI*NK + 4*NK*NJ + 8*NI*NJ
 *   mm2_kernel1    tmp[i][j] = 0; for k: tmp[i][j] += ALPHA * A[i][k] * B[k][j]   (i < NI, j < NJ)
 *                  W = 3*NI*NJ*NK; Q = 4*NI*NK + 4*NK*NJ + 4*NI*NJ (tmp only written)
 *   mm2_kernel2    D[i][l] *= BETA; for j: D[i][l] += tmp[i][j] * C[j][l]          (i < NI, l < NL)
 *                  W = NI*NL*(1 + 2*NJ); Q = 4*NI*NJ + 4*NJ*NL + 8*NI*NL
 *   atax_kernel1   for j: tmp[i] += A[i][j] * x[j]                   (i < NX)
 *                  W = 2*NX*NY; Q = 4*NX*NY + 4*NY + 8*NX
 *   atax_kernel2   for i: y[j] += A[i][j] * tmp[i]                   (j < NY)
 *                  W = 2*NX*NY; Q = 4*NX*NY + 4*NX + 8*NY
 *   bicg_kernel1   s[j] = 0; for i: s[j] += r[i] * A[i][j]           (j < NY)
 *                  W = 2*NX*NY; Q = 4*NX*NY + 4*NX + 4*NY
 *   bicg_kernel2   q[i] = 0; for j: q[i] += A[i][j] * p[j]           (i < NX)
 *                  W = 2*NX*NY; Q = 4*NX*NY + 4*NY + 4*NX
 *   mvt_kernel1    for j: x1[i] += a[i][j] * y1[j]                   (i < NX)
 *                  W = 2*NX*NX; Q = 4*NX*NX + 4*NX + 8*NX = 4*NX**2 + 12*NX
 *   syrk_kernel    c[i][j] *= BETA; for k: c[i][j] += ALPHA * a[i][k] * a[j][k]  (i < NX, j < NX)
 *                  W = NX*NX*(1 + 3*NY); Q = 4*NX*NY + 8*NX*NX
 *   gesummv_kernel for j: tmp[i] += A[i][j]*x[j]; y[i] += B[i][j]*x[j];  y[i] = ALPHA*tmp[i] + BETA*y[i]
 *                  (i < NX; tmp and y are zeroed first, so they are written, not read)
 *                  W = 4*NX*NX + 3*NX; Q = 8*NX*NX + 4*NX + 8*NX = 8*NX**2 + 12*NX
 *   jacobi2d_kernel1  B[i][j] = 0.2f*(A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
 *                  for 1 <= i, j < NX - 1: W = 5*(NX - 2)**2 (4 adds, 1 multiply);
 *                  reads A everywhere but the 4 corners: NX**2 - 4; writes B's interior (NX - 2)**2
 *                  Q = 4*(NX**2 - 4) + 4*(NX - 2)**2
 *   jacobi2d_kernel2  A[i][j] = B[i][j] over the same interior: W = 0; Q = 8*(NX - 2)**2
 * Each kernel is launched TSTEPS times in main's time loop for the Jacobi pair: the counts are per
 * launch.
 *
 *   gemm_acc_kernel   gemm with the sizes as parameters ni, nj, nk (from main through gemmAccCuda)
 *                  and rows strided by the #defines: at ni = nj = nk = 1000, as gemm_kernel
 *   fdtd_step1_kernel  row 0: ey[0][j] = _fict_[t]; rows 1..NX-1: ey -= 0.5f*(hz[i][j] - hz[i-1][j])
 *                  W = 3*(NX - 1)*NY; Q = 4*(NX*NY + (NX - 1)*NY + NX*NY + 1)
 * tests/test_launch_inference.py checks every kernel at these sizes.  The grids: ceil(1000/32) = 32
 * blocks along x, ceil(1000/8) = 125 along y, ceil(1000/256) = 4 for the 1-D kernels.
 *
 * At the #defined sizes (NI = NJ = NK = NL = 1000, NX = 1000 (bounded by NY = 1000)), with NJ and
 * NK folded where they stride an index (SR115), NI free (an #ifndef default):
 *   gemm: W = 10^6 * 3001 = 3,001,000,000; Q = 4e6 + 4e6 + 8e6 = 16,000,000
 *
 * staticroof:expect gemm_kernel
 *   W        = 3001000*NI
 *   fp32     = 3001000*NI
 *   Q        = 12000*NI + 4000000
 *   W_value  = 3001000000
 *   Q_value  = 16000000
 *
 * staticroof:expect gemm_acc_kernel
 *   fp32     = 3*ni*nj*nk + ni*nj
 *   W_value  = 3001000000
 *   Q_value  = 16000000
 */

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>

#define GPU_DEVICE 0
#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

/* Problem size */
#ifndef NI
#define NI 1000
#endif
#define NJ 1000
#define NK 1000
#define NL 1000
#define NX 1000
#define NY 1000
#define TSTEPS 20

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8
#define DIM_THREAD_BLOCK_1D 256

#define ALPHA 32412.0f
#define BETA 2123.0f

typedef float DATA_TYPE;

double rtclock()
{
    struct timezone Tzp;
    struct timeval Tp;
    int stat;
    stat = gettimeofday(&Tp, &Tzp);
    if (stat != 0) printf("Error return from gettimeofday: %d", stat);
    return (Tp.tv_sec + Tp.tv_usec * 1.0e-6);
}

float absVal(float a)
{
    return a < 0 ? a * -1 : a;
}

float percentDiff(double val1, double val2)
{
    if ((absVal(val1) < 0.01) && (absVal(val2) < 0.01))
        return 0.0f;
    return 100.0f * (absVal(absVal(val1 - val2) / absVal(val1 + 0.00000001f)));
}

void GPU_argv_init()
{
    cudaDeviceProp deviceProp;
    cudaGetDeviceProperties(&deviceProp, GPU_DEVICE);
    printf("setting device %d with name %s\n", GPU_DEVICE, deviceProp.name);
    cudaSetDevice(GPU_DEVICE);
}

/* ------------------------------------------------------------------ gemm */

__global__ void gemm_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NI) && (j < NJ))
    {
        c[i * NJ + j] *= BETA;
        int k;
        for (k = 0; k < NK; k++)
        {
            c[i * NJ + j] += ALPHA * a[i * NK + k] * b[k * NJ + j];
        }
    }
}

void gemmCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
    double t_start, t_end;
    DATA_TYPE *A_gpu, *B_gpu, *C_gpu;

    cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK);
    cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ);
    cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NI * NJ);
    cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice);
    cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice);
    cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyHostToDevice);

    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid((size_t)(ceil(((float)NJ) / ((float)block.x))), (size_t)(ceil(((float)NI) / ((float)block.y))));

    t_start = rtclock();
    gemm_kernel<<<grid, block>>>(A_gpu, B_gpu, C_gpu);
    cudaThreadSynchronize();
    t_end = rtclock();
    fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

    cudaMemcpy(C_outputFromGpu, C_gpu, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyDeviceToHost);
    cudaFree(A_gpu);
    cudaFree(B_gpu);
    cudaFree(C_gpu);
}

/* ------------------------------------------------------------------ 2mm */

__global__ void mm2_kernel1(DATA_TYPE *tmp, DATA_TYPE *A, DATA_TYPE *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NI) && (j < NJ))
    {
        int k;
        tmp[i * NJ + j] = 0;
        for (k = 0; k < NK; k++)
        {
            tmp[i * NJ + j] += ALPHA * A[i * NK + k] * B[k * NJ + j];
        }
    }
}

__global__ void mm2_kernel2(DATA_TYPE *tmp, DATA_TYPE *C, DATA_TYPE *D)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NI) && (l < NL))
    {
        D[i * NL + l] *= BETA;
        int k;
        for (k = 0; k < NJ; k++)
        {
            D[i * NL + l] += tmp[i * NJ + k] * C[k * NL + l];
        }
    }
}

void mm2Cuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *tmp)
{
    DATA_TYPE *tmp_gpu, *A_gpu, *B_gpu, *C_gpu, *D_gpu;
    cudaMalloc((void **)&tmp_gpu, sizeof(DATA_TYPE) * NI * NJ);
    cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK);
    cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ);
    cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NL * NJ);
    cudaMalloc((void **)&D_gpu, sizeof(DATA_TYPE) * NI * NL);

    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid1((size_t)ceil(((float)NJ) / ((float)block.x)), (size_t)ceil(((float)NI) / ((float)block.y)));
    dim3 grid2((size_t)ceil(((float)NL) / ((float)block.x)), (size_t)ceil(((float)NI) / ((float)block.y)));

    double t_start = rtclock();
    mm2_kernel1<<<grid1, block>>>(tmp_gpu, A_gpu, B_gpu);
    cudaThreadSynchronize();
    mm2_kernel2<<<grid2, block>>>(tmp_gpu, C_gpu, D_gpu);
    cudaThreadSynchronize();
    double t_end = rtclock();
    fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

    cudaFree(tmp_gpu);
    cudaFree(A_gpu);
    cudaFree(B_gpu);
    cudaFree(C_gpu);
    cudaFree(D_gpu);
}

/* ------------------------------------------------------------------ atax, bicg, mvt */

__global__ void atax_kernel1(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < NX)
    {
        int j;
        for (j = 0; j < NY; j++)
        {
            tmp[i] += A[i * NY + j] * x[j];
        }
    }
}

__global__ void atax_kernel2(DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (j < NY)
    {
        int i;
        for (i = 0; i < NX; i++)
        {
            y[j] += A[i * NY + j] * tmp[i];
        }
    }
}

__global__ void bicg_kernel1(DATA_TYPE *A, DATA_TYPE *r, DATA_TYPE *s)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (j < NY)
    {
        s[j] = 0.0f;
        int i;
        for (i = 0; i < NX; i++)
        {
            s[j] += r[i] * A[i * NY + j];
        }
    }
}

__global__ void bicg_kernel2(DATA_TYPE *A, DATA_TYPE *p, DATA_TYPE *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < NX)
    {
        q[i] = 0.0f;
        int j;
        for (j = 0; j < NY; j++)
        {
            q[i] += A[i * NY + j] * p[j];
        }
    }
}

__global__ void mvt_kernel1(DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *y_1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < NX)
    {
        int j;
        for (j = 0; j < NX; j++)
        {
            x1[i] += a[i * NX + j] * y_1[j];
        }
    }
}

void ataxCuda(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp)
{
    DATA_TYPE *A_gpu, *x_gpu, *y_gpu, *tmp_gpu;
    cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NX * NY);
    cudaMalloc((void **)&x_gpu, sizeof(DATA_TYPE) * NY);
    cudaMalloc((void **)&y_gpu, sizeof(DATA_TYPE) * NY);
    cudaMalloc((void **)&tmp_gpu, sizeof(DATA_TYPE) * NX);

    dim3 block(DIM_THREAD_BLOCK_1D, 1);
    dim3 grid1((size_t)(ceil(((float)NX) / ((float)block.x))), 1);
    dim3 grid2((size_t)(ceil(((float)NY) / ((float)block.x))), 1);

    double t_start = rtclock();
    atax_kernel1<<<grid1, block>>>(A_gpu, x_gpu, tmp_gpu);
    cudaThreadSynchronize();
    atax_kernel2<<<grid2, block>>>(A_gpu, y_gpu, tmp_gpu);
    cudaThreadSynchronize();
    double t_end = rtclock();
    fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

    dim3 grid3((size_t)(ceil(((float)NY) / ((float)block.x))), 1);
    dim3 grid4((size_t)(ceil(((float)NX) / ((float)block.x))), 1);
    bicg_kernel1<<<grid3, block>>>(A_gpu, x_gpu, y_gpu);
    bicg_kernel2<<<grid4, block>>>(A_gpu, y_gpu, x_gpu);

    /* the 2-D block of the other benchmarks, for a 1-D kernel: every thread along y repeats it */
    dim3 block2(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid5((size_t)(ceil(((float)NX) / ((float)block2.x))), 1);
    mvt_kernel1<<<grid5, block2>>>(A_gpu, tmp_gpu, x_gpu);
    cudaThreadSynchronize();

    cudaFree(A_gpu);
    cudaFree(x_gpu);
    cudaFree(y_gpu);
    cudaFree(tmp_gpu);
}

/* ------------------------------------------------------------------ syrk, gesummv */

__global__ void syrk_kernel(DATA_TYPE ALPHA_, DATA_TYPE BETA_, DATA_TYPE *a, DATA_TYPE *c)
{
    /*  C := alpha*A*A' + beta*C */
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NX) && (j < NX))
    {
        c[i * NX + j] *= BETA;
        int k;
        for (k = 0; k < NY; k++)
        {
            c[i * NX + j] += ALPHA * a[i * NY + k] * a[j * NY + k];
        }
    }
}

__global__ void gesummv_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < NX)
    {
        int j;
        tmp[i] = 0;
        y[i] = 0;
        for (j = 0; j < NX; j++)
        {
            tmp[i] = a[i * NX + j] * x[j] + tmp[i];
            y[i] = b[i * NX + j] * x[j] + y[i];
        }
        y[i] = ALPHA * tmp[i] + BETA * y[i];
    }
}

void syrkCuda(DATA_TYPE *A, DATA_TYPE *C, DATA_TYPE *B, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp)
{
    DATA_TYPE *A_gpu, *C_gpu, *B_gpu, *x_gpu, *y_gpu, *tmp_gpu;
    cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NX * NY);
    cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NX * NX);

    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid((size_t)(ceil(((float)NX) / ((float)DIM_THREAD_BLOCK_X))),
              (size_t)ceil(((float)NX) / ((float)DIM_THREAD_BLOCK_Y)));
    syrk_kernel<<<grid, block>>>(ALPHA, BETA, A_gpu, C_gpu);

    dim3 block1(DIM_THREAD_BLOCK_1D);
    dim3 grid1((unsigned int)ceil(((float)NX) / ((float)block1.x)), 1);
    gesummv_kernel<<<grid1, block1>>>(A_gpu, B_gpu, x_gpu, y_gpu, tmp_gpu);
    cudaThreadSynchronize();
}

/* ------------------------------------------------------------------ jacobi-2d */

__global__ void jacobi2d_kernel1(DATA_TYPE *A, DATA_TYPE *B)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if ((i >= 1) && (i < (NX - 1)) && (j >= 1) && (j < (NX - 1)))
    {
        B[i * NX + j] = 0.2f * (A[i * NX + j] + A[i * NX + (j - 1)] + A[i * NX + (1 + j)]
                                + A[(1 + i) * NX + j] + A[(i - 1) * NX + j]);
    }
}

__global__ void jacobi2d_kernel2(DATA_TYPE *A, DATA_TYPE *B)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if ((i >= 1) && (i < (NX - 1)) && (j >= 1) && (j < (NX - 1)))
    {
        A[i * NX + j] = B[i * NX + j];
    }
}

void jacobi2dCuda(DATA_TYPE *A, DATA_TYPE *B)
{
    DATA_TYPE *A_gpu, *B_gpu;
    cudaMalloc(&A_gpu, NX * NX * sizeof(DATA_TYPE));
    cudaMalloc(&B_gpu, NX * NX * sizeof(DATA_TYPE));

    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid((unsigned int)ceil(((float)NX) / ((float)block.x)), (unsigned int)ceil(((float)NX) / ((float)block.y)));

    double t_start = rtclock();
    for (int t = 0; t < TSTEPS; t++)
    {
        jacobi2d_kernel1<<<grid, block>>>(A_gpu, B_gpu);
        cudaThreadSynchronize();
        jacobi2d_kernel2<<<grid, block>>>(A_gpu, B_gpu);
        cudaThreadSynchronize();
    }
    double t_end = rtclock();
    fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
    cudaFree(A_gpu);
    cudaFree(B_gpu);
}

/* ------------------------------------------------------------------ sizes as parameters
 * The PolyBench-ACC form: the kernel takes the sizes (ni, nj, nk) and tests them in its guard,
 * but strides its rows by the #defines; the host wrapper computes the grid and launches, and main
 * passes `int ni = NI;`.  The sizes reach the kernel through the wrapper's call.  A kernel that
 * never reads one of its parameters (`nl` below) is counted all the same. */

#define _PB_NI ni
#define _PB_NJ nj
#define _PB_NK nk

__global__ void gemm_acc_kernel(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                                DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < _PB_NI) && (j < _PB_NJ))
    {
        c[i * NJ + j] *= beta;
        int k;
        for (k = 0; k < _PB_NK; k++)
        {
            c[i * NJ + j] += alpha * a[i * NK + k] * b[k * NJ + j];
        }
    }
}

/* fdtd-2d's first step: row 0 of ey takes the time step's value, the other rows a difference */
__global__ void fdtd_step1_kernel(DATA_TYPE *_fict_, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NX) && (j < NY))
    {
        if (i == 0)
        {
            ey[i * NY + j] = _fict_[t];
        }
        else
        {
            ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
        }
    }
}

void gemmAccCuda(int ni, int nj, int nk, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *A_gpu,
                 DATA_TYPE *B_gpu, DATA_TYPE *C_gpu)
{
    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid((size_t)(ceil(((float)nj) / ((float)block.x))), (size_t)(ceil(((float)ni) / ((float)block.y))));

    double t_start = rtclock();
    gemm_acc_kernel<<<grid, block>>>(ni, nj, nk, 0, alpha, beta, A_gpu, B_gpu, C_gpu);
    cudaThreadSynchronize();
    double t_end = rtclock();
    fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
}

void fdtdCuda(DATA_TYPE *_fict_, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz)
{
    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid((size_t)ceil(((float)NY) / ((float)block.x)), (size_t)ceil(((float)NX) / ((float)block.y)));

    for (int t = 0; t < TSTEPS; t++)
    {
        fdtd_step1_kernel<<<grid, block>>>(_fict_, ex, ey, hz, t);
        cudaThreadSynchronize();
    }
}

int main(int argc, char *argv[])
{
    int ni = NI;
    int nj = NJ;
    int nk = NK;
    DATA_TYPE alpha = 32412.0f;
    DATA_TYPE beta = 2123.0f;
    DATA_TYPE *A = (DATA_TYPE *)malloc(NI * NK * sizeof(DATA_TYPE));
    DATA_TYPE *B = (DATA_TYPE *)malloc(NK * NJ * sizeof(DATA_TYPE));
    DATA_TYPE *C = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
    DATA_TYPE *D = (DATA_TYPE *)malloc(NI * NL * sizeof(DATA_TYPE));
    DATA_TYPE *tmp = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
    DATA_TYPE *x = (DATA_TYPE *)malloc(NX * sizeof(DATA_TYPE));
    DATA_TYPE *y = (DATA_TYPE *)malloc(NX * sizeof(DATA_TYPE));

    GPU_argv_init();
    gemmCuda(A, B, C, D);
    mm2Cuda(A, B, C, D, tmp);
    ataxCuda(A, x, y, tmp);
    syrkCuda(A, C, B, x, y, tmp);
    jacobi2dCuda(A, B);
    gemmAccCuda(ni, nj, nk, alpha, beta, A, B, C);
    fdtdCuda(x, A, B, C);

    free(A);
    free(B);
    free(C);
    free(D);
    free(tmp);
    free(x);
    free(y);
    return 0;
}
