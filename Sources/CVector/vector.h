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

// Eight opaque pixels stored as RGBA from their red, green and blue lanes (the maps of
// mercurial:material-maps): four shuffles per pair of pixels. Swift's per-lane stores were a
// scalar loop of 32 stores.
static inline __attribute__((always_inline)) void mercurial_store_rgb8(float *out, mercurial_float8 r,
                                                                      mercurial_float8 g, mercurial_float8 b) {
    const mercurial_float8 one = (mercurial_float8){1, 1, 1, 1, 1, 1, 1, 1};
    mercurial_float8 rg0 = __builtin_shufflevector(r, g, 0, 8, 1, 9, 2, 10, 3, 11);
    mercurial_float8 rg1 = __builtin_shufflevector(r, g, 4, 12, 5, 13, 6, 14, 7, 15);
    mercurial_float8 b0 = __builtin_shufflevector(b, one, 0, 8, 1, 9, 2, 10, 3, 11);
    mercurial_float8 b1 = __builtin_shufflevector(b, one, 4, 12, 5, 13, 6, 14, 7, 15);
    mercurial_float8 p[4] = {
        __builtin_shufflevector(rg0, b0, 0, 1, 8, 9, 2, 3, 10, 11),
        __builtin_shufflevector(rg0, b0, 4, 5, 12, 13, 6, 7, 14, 15),
        __builtin_shufflevector(rg1, b1, 0, 1, 8, 9, 2, 3, 10, 11),
        __builtin_shufflevector(rg1, b1, 4, 5, 12, 13, 6, 7, 14, 15),
    };
    __builtin_memcpy(out, p, sizeof p);
}
