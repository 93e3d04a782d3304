/* nbody.cu -- all-pairs gravitational n-body, two common layouts: positions as float4
 * (x, y, z, mass) with accelerations written as float4, and an array of Body structs
 * (position and velocity members) updated in place, plus the integration step.
 * One thread per body, guard i < n, grid (n + 255) / 256 blocks of 256 covering it.
 *
 * accel_float4: per pair (n^2 pairs, j over all bodies including i, softened):
 *   dx, dy, dz: 3 subtracts; d2 = dx*dx + dy*dy + dz*dz + SOFTENING2: 3 multiplies, 3 adds;
 *   inv = rsqrtf(d2): 1 special; inv3 = inv*inv*inv: 2; s = pj.w * inv3: 1;
 *   ax += dx*s (x3): 6.  19 per pair (1 special).  W = 19*n**2, special = n**2.
 *   Q: pos read as float4 (16 B) n elements: 16n; acc written as float4: 16n.  Q = 32*n.
 *
 * body_force(Body *p, float dt, int n): per pair: 3 subtracts, 3 multiplies + 3 adds
 *   (+ SOFTENING), rsqrtf (special), inv3 = inv*inv*inv (2), fx += dx*inv3 (x3: 6) -> 18
 *   (1 special); per body: p[i].vx += dt*fx (x3): 6.  W = 18*n**2 + 6*n, special = n**2.
 *   Q: members touched: x, y, z read (their first access, n each, 4 B), vx, vy, vz read and
 *   written (n each).  Body is 24 B but only those member bytes move:
 *   Q = 12*n + 24*n = 36*n.
 *
 * integrate_bodies(Body *p, float dt, int n): p[i].x += p[i].vx*dt (x3): 6 per body.
 *   W = 6*n.  Q: x, y, z read and written, vx, vy, vz read: 24*n + 12*n = 36*n.
 *
 * staticroof:expect accel_float4
 *   W       = 19*n**2
 *   Q       = 32*n
 *   fp32    = 19*n**2
 *   special = n**2
 *
 * staticroof:expect body_force
 *   W       = 18*n**2 + 6*n
 *   Q       = 36*n
 *   fp32    = 18*n**2 + 6*n
 *   special = n**2
 *
 * staticroof:expect integrate_bodies
 *   W    = 6*n
 *   Q    = 36*n
 *   fp32 = 6*n
 */

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define SOFTENING 1e-9f
#define BLOCK_SIZE 256

typedef struct {
    float x, y, z;
    float vx, vy, vz;
} Body;

__global__ void accel_float4(const float4* __restrict__ pos, float4* __restrict__ acc, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;

    const float4 pi = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; j++) {
        const float4 pj = pos[j];
        const float dx = pj.x - pi.x;
        const float dy = pj.y - pi.y;
        const float dz = pj.z - pi.z;
        const float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
        const float inv = rsqrtf(d2);
        const float inv3 = inv * inv * inv;
        const float s = pj.w * inv3;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    acc[i] = make_float4(ax, ay, az, 0.0f);
}

__global__ void body_force(Body* p, float dt, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) {
        float Fx = 0.0f;
        float Fy = 0.0f;
        float Fz = 0.0f;

        for (int j = 0; j < n; j++) {
            float dx = p[j].x - p[i].x;
            float dy = p[j].y - p[i].y;
            float dz = p[j].z - p[i].z;
            float distSqr = dx * dx + dy * dy + dz * dz + SOFTENING;
            float invDist = rsqrtf(distSqr);
            float invDist3 = invDist * invDist * invDist;

            Fx += dx * invDist3;
            Fy += dy * invDist3;
            Fz += dz * invDist3;
        }

        p[i].vx += dt * Fx;
        p[i].vy += dt * Fy;
        p[i].vz += dt * Fz;
    }
}

__global__ void integrate_bodies(Body* p, float dt, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) {
        p[i].x += p[i].vx * dt;
        p[i].y += p[i].vy * dt;
        p[i].z += p[i].vz * dt;
    }
}

int main(const int argc, const char** argv)
{
    int nBodies = 30000;
    if (argc > 1)
        nBodies = atoi(argv[1]);

    const float dt = 0.01f;
    const int nIters = 10;

    Body* d_p;
    float4 *d_pos, *d_acc;
    cudaMalloc(&d_p, nBodies * sizeof(Body));
    cudaMalloc(&d_pos, nBodies * sizeof(float4));
    cudaMalloc(&d_acc, nBodies * sizeof(float4));

    const int nBlocks = (nBodies + BLOCK_SIZE - 1) / BLOCK_SIZE;
    for (int iter = 1; iter <= nIters; iter++) {
        body_force<<<nBlocks, BLOCK_SIZE>>>(d_p, dt, nBodies);
        integrate_bodies<<<nBlocks, BLOCK_SIZE>>>(d_p, dt, nBodies);
    }
    accel_float4<<<nBlocks, BLOCK_SIZE>>>(d_pos, d_acc, nBodies);
    cudaDeviceSynchronize();

    cudaFree(d_p);
    cudaFree(d_pos);
    cudaFree(d_acc);
    return 0;
}
