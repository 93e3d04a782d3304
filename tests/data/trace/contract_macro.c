/* A tensor contraction R[a][b][d] = sum_c T[a][b][c] * M[c][d] on tensors stored with fixed
 * strides (the padded extents DB, DC, DD), over extents given at run time. */
#define DB 128
#define DC 96
#define DD 80

void contract(int na, int nb, int nc, int nd, const float *restrict T, const float *restrict M,
              float *restrict R)
{
  for (int a = 0; a < na; a++)
    for (int b = 0; b < nb; b++)
      for (int d = 0; d < nd; d++) {
        float s = 0.0f;
        for (int c = 0; c < nc; c++)
          s += T[(a * DB + b) * DC + c] * M[c * DD + d];
        R[(a * DB + b) * DD + d] = s;
      }
}
