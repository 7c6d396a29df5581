// The kernels' few lines of C, each for something Swift cannot say; all inlined into the Swift
// kernels that include them, nothing is linked.
#pragma once

// A hint to the processor to start loading a cache line that will be read soon (a compiler
// builtin, not a function).
static inline __attribute__((always_inline)) void mercurial_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

// The same for a cache line that will be written soon (fetched ready to be written).
static inline __attribute__((always_inline)) void mercurial_prefetch_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

typedef float mercurial_float8 __attribute__((ext_vector_type(8)));

// Eight floats from any address (no alignment needed). Swift's generic loadUnaligned stayed a call
// per load in the lighting kernel.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_load8(const float *p) {
    mercurial_float8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

// Whether any of eight floats differs from `value` (−0 and +0 are equal): one compare and the
// lanes' sign bits. Swift's vector compare became a mask built lane by lane before its reduction.
static inline __attribute__((always_inline)) int mercurial_any_not8(mercurial_float8 v, float value) {
    return __builtin_reduce_or(v != value) != 0;
}

// Whether all of eight floats are at least `value` (NaN is not): one compare and the lanes' sign bits.
static inline __attribute__((always_inline)) int mercurial_all_at_least8(mercurial_float8 v, float value) {
    return __builtin_reduce_and(v >= value) != 0;
}

// Whether any of eight floats is at least `value` (NaN is not), as above.
static inline __attribute__((always_inline)) int mercurial_any_at_least8(mercurial_float8 v, float value) {
    return __builtin_reduce_or(v >= value) != 0;
}

// Whether a and b lie on different sides of `level` (at least it, or not) in any of eight lanes.
static inline __attribute__((always_inline)) int mercurial_any_across8(mercurial_float8 a, mercurial_float8 b, float level) {
    return __builtin_reduce_or((a >= level) != (b >= level)) != 0;
}

// Sixteen square roots, or quotients, as vector instructions (two AVX registers: two independent
// chains of operations side by side). Swift's SIMD square root and division take each lane on its
// own and leave the optimizer to regroup them, which it did in SSE halves, on the AVX build too; a C
// vector says it at once. IEEE square roots and quotients either way: the same bits, lane for lane.
typedef float mercurial_float16 __attribute__((ext_vector_type(16)));
static inline __attribute__((always_inline)) mercurial_float16 mercurial_sqrt16(mercurial_float16 x) {
    return __builtin_elementwise_sqrt(x);
}
static inline __attribute__((always_inline)) mercurial_float16 mercurial_div16(mercurial_float16 a, mercurial_float16 b) {
    return a / b;
}

// Two RGBA pixels with the colour lanes of `colour` and the alpha lanes of `alpha`: one blend
// instruction. Swift's per-lane assignment took four, its masked replace a loop over the lanes.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_with_alpha8(mercurial_float8 colour,
                                                                                 mercurial_float8 alpha) {
    return __builtin_shufflevector(colour, alpha, 0, 1, 2, 11, 4, 5, 6, 15);
}

// The x of eight pixel centres from column x0: x0 + 0.5, x0 + 1.5, … (exact for |x0| < 2²²).
// Swift's integer-to-float vector conversion is a generic call, and a bit trick in its place was
// compiled lane by lane; here it is one conversion instruction.
typedef int mercurial_int8 __attribute__((ext_vector_type(8)));
static inline __attribute__((always_inline)) mercurial_float8 mercurial_centres8(int x0) {
    mercurial_int8 x = (mercurial_int8){0, 1, 2, 3, 4, 5, 6, 7} + x0;
    return __builtin_convertvector(x, mercurial_float8) + 0.5f;
}

// Eight pixels stored as RGB from their red, green and blue lanes (the normal maps of
// mercurial:material-maps): three shuffles. Swift's per-lane stores were a scalar loop of 24 stores.
typedef float mercurial_float16x __attribute__((ext_vector_type(16)));
static inline __attribute__((always_inline)) void mercurial_store_rgb8(float *out, mercurial_float8 r,
                                                                      mercurial_float8 g, mercurial_float8 b) {
    const mercurial_float8 zero = (mercurial_float8){0, 0, 0, 0, 0, 0, 0, 0};
    mercurial_float16x rg = __builtin_shufflevector(r, g, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    mercurial_float16x b0 = __builtin_shufflevector(b, zero, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    mercurial_float8 p[3] = {
        __builtin_shufflevector(rg, b0, 0, 8, 16, 1, 9, 17, 2, 10),
        __builtin_shufflevector(rg, b0, 18, 3, 11, 19, 4, 12, 20, 5),
        __builtin_shufflevector(rg, b0, 13, 21, 6, 14, 22, 7, 15, 23),
    };
    __builtin_memcpy(out, p, sizeof p);
}

// Sixteen floats stored as `even` and `odd` interleaved (even[0], odd[0], even[1], …): two unpacks
// and a store (a grid of spacing 2 read back: the even pixels' values, and the odd ones').
static inline __attribute__((always_inline)) void mercurial_store_interleaved8(float *out, mercurial_float8 even,
                                                                              mercurial_float8 odd) {
    mercurial_float16 v = __builtin_shufflevector(even, odd, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
    __builtin_memcpy(out, &v, sizeof v);
}

// Sixteen floats stored at any alignment, as one store.
static inline __attribute__((always_inline)) void mercurial_store16(float *out, mercurial_float16 v) {
    __builtin_memcpy(out, &v, sizeof v);
}

// An 8 × 8 block of floats transposed: dst row j = src column j (rows `srcStride` and `dstStride`
// floats apart). Unpacks and shuffles of whole rows; Swift, with no shuffle, built each output
// row lane by lane, through the stack.
static inline __attribute__((always_inline)) void mercurial_transpose8(const float *src, long srcStride, float *dst,
                                                                       long dstStride) {
    mercurial_float8 r[8], t[8], u[8];
    for (int i = 0; i < 8; i++) r[i] = mercurial_load8(src + i * srcStride);
    for (int i = 0; i < 8; i += 2) {
        t[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        t[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = __builtin_shufflevector(t[i], t[i + 2], 0, 1, 8, 9, 4, 5, 12, 13);
        u[i + 1] = __builtin_shufflevector(t[i], t[i + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        u[i + 2] = __builtin_shufflevector(t[i + 1], t[i + 3], 0, 1, 8, 9, 4, 5, 12, 13);
        u[i + 3] = __builtin_shufflevector(t[i + 1], t[i + 3], 2, 3, 10, 11, 6, 7, 14, 15);
    }
    for (int j = 0; j < 4; j++) {
        mercurial_float8 low = __builtin_shufflevector(u[j], u[j + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        mercurial_float8 high = __builtin_shufflevector(u[j], u[j + 4], 4, 5, 6, 7, 12, 13, 14, 15);
        __builtin_memcpy(dst + j * dstStride, &low, sizeof low);
        __builtin_memcpy(dst + (j + 4) * dstStride, &high, sizeof high);
    }
}

// The heights, or the alphas, of eight (height, alpha) pairs from `p`: the even floats of p[0..<16],
// or the odd ones, in two loads and a shuffle. Swift built them lane by lane.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_evens8(const float *p) {
    return __builtin_shufflevector(mercurial_load8(p), mercurial_load8(p + 8), 0, 2, 4, 6, 8, 10, 12, 14);
}
static inline __attribute__((always_inline)) mercurial_float8 mercurial_odds8(const float *p) {
    return __builtin_shufflevector(mercurial_load8(p), mercurial_load8(p + 8), 1, 3, 5, 7, 9, 11, 13, 15);
}

// 1 / √x of eight floats: an IEEE square root, then an IEEE quotient (the same bits as Swift's
// `1 / x.squareRoot()`), as two AVX instructions (see the sixteen-lane versions above for why C).
static inline __attribute__((always_inline)) mercurial_float8 mercurial_inverse_sqrt8(mercurial_float8 x) {
    return 1.0f / __builtin_elementwise_sqrt(x);
}

// Taps of a symmetric blur over eight lanes, in registers: the sum is stored once, not after each
// group of taps. The grouping is the scalar loops' and nothing is fused (no multiply-add), so the
// bits are theirs. Swift's SIMD arithmetic here was compiled lane by lane, through the stack.
//
// acc + ((a·(u[0] + v[0]) + b·(u[−s] + v[s])) + (c·(u[−2s] + v[2s]) + d·(u[−3s] + v[3s]))): four
// taps along a line of stride s.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_taps4(mercurial_float8 acc, const float *u,
                                                                             const float *v, long s, float a,
                                                                             float b, float c, float d) {
#pragma clang fp contract(off)
    mercurial_float8 p = a * (mercurial_load8(u) + mercurial_load8(v)) + b * (mercurial_load8(u - s) + mercurial_load8(v + s));
    mercurial_float8 q = c * (mercurial_load8(u - 2 * s) + mercurial_load8(v + 2 * s)) +
                         d * (mercurial_load8(u - 3 * s) + mercurial_load8(v + 3 * s));
    return acc + (p + q);
}

// The same four taps down rows given by pointers: rows up[0], up[−1], up[−2], up[−3] and
// down[0 … 3], each read from column x.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_taps4_rows(mercurial_float8 acc,
                                                                                  const float *_Nonnull const *_Nonnull up,
                                                                                  const float *_Nonnull const *_Nonnull down, long x,
                                                                                  float a, float b, float c, float d) {
#pragma clang fp contract(off)
    mercurial_float8 p = a * (mercurial_load8(up[0] + x) + mercurial_load8(down[0] + x)) +
                         b * (mercurial_load8(up[-1] + x) + mercurial_load8(down[1] + x));
    mercurial_float8 q = c * (mercurial_load8(up[-2] + x) + mercurial_load8(down[2] + x)) +
                         d * (mercurial_load8(up[-3] + x) + mercurial_load8(down[3] + x));
    return acc + (p + q);
}

// acc + a·(u[0] + v[0]): one tap.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_tap1(mercurial_float8 acc, const float *u,
                                                                            const float *v, float a) {
#pragma clang fp contract(off)
    return acc + a * (mercurial_load8(u) + mercurial_load8(v));
}

// a·u[0]: the centre tap.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_tap0(const float *u, float a) {
    return a * mercurial_load8(u);
}
