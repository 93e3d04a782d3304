/* Three data-dependent branches in one loop: SR104 three times, one cause. */
void clamp3(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        float v = x[i];
        if (v > 1.0f)
            v = v * 0.5f;
        if (v < -1.0f)
            v = v * 0.25f;
        if (v != v)
            v = 0.5f * (x[i] + 1.0f);
        y[i] = v;
    }
}
