/* Twelve segments, each scaled in place over its own length: W and Q are sums of twelve
   terms in long size names, past 200 characters when printed. */
void scale_segments(int length_of_segment_00, int length_of_segment_01, int length_of_segment_02, int length_of_segment_03, int length_of_segment_04, int length_of_segment_05, int length_of_segment_06, int length_of_segment_07, int length_of_segment_08, int length_of_segment_09, int length_of_segment_10, int length_of_segment_11, float *restrict seg00, float *restrict seg01, float *restrict seg02, float *restrict seg03, float *restrict seg04, float *restrict seg05, float *restrict seg06, float *restrict seg07, float *restrict seg08, float *restrict seg09, float *restrict seg10, float *restrict seg11)
{
    for (int i = 0; i < length_of_segment_00; i++)
        seg00[i] = seg00[i] * 2.0f;
    for (int i = 0; i < length_of_segment_01; i++)
        seg01[i] = seg01[i] * 2.0f;
    for (int i = 0; i < length_of_segment_02; i++)
        seg02[i] = seg02[i] * 2.0f;
    for (int i = 0; i < length_of_segment_03; i++)
        seg03[i] = seg03[i] * 2.0f;
    for (int i = 0; i < length_of_segment_04; i++)
        seg04[i] = seg04[i] * 2.0f;
    for (int i = 0; i < length_of_segment_05; i++)
        seg05[i] = seg05[i] * 2.0f;
    for (int i = 0; i < length_of_segment_06; i++)
        seg06[i] = seg06[i] * 2.0f;
    for (int i = 0; i < length_of_segment_07; i++)
        seg07[i] = seg07[i] * 2.0f;
    for (int i = 0; i < length_of_segment_08; i++)
        seg08[i] = seg08[i] * 2.0f;
    for (int i = 0; i < length_of_segment_09; i++)
        seg09[i] = seg09[i] * 2.0f;
    for (int i = 0; i < length_of_segment_10; i++)
        seg10[i] = seg10[i] * 2.0f;
    for (int i = 0; i < length_of_segment_11; i++)
        seg11[i] = seg11[i] * 2.0f;
}
