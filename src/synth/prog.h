/* prog.h - tile programs (docs/synthesis.md, "Tile programs"): parsed by
 * prog.c, their layouts inferred by infer.c, written as CUDA by emit.c
 * (internal to the synth room; its door synth.h gives the entry points). */
#ifndef LEGO_SYNTH_PROG_H
#define LEGO_SYNTH_PROG_H

#include "synth/synth.h"

typedef enum prog_kind { PT_GLOBAL, PT_SHARED, PT_REG } prog_kind;

/* How a tensor is made: shared = copy(global, bytes), reg = load(shared),
 * mma(shape, a, b) or cast(reg); a global is an argument. */
typedef enum prog_op { OP_NONE, OP_COPY, OP_LOAD, OP_MMA, OP_CAST } prog_op;

/* The operand of the mma a register tile is, or the accumulator. */
typedef enum prog_role { ROLE_NONE, ROLE_A, ROLE_B, ROLE_C } prog_role;

typedef struct prog_tensor {
	const char *name;
	int line, col;             /* its declaration */
	prog_kind kind;
	const char *type;          /* f16, bf16, f32 (NULL: inferred) */
	int64_t elem;
	int64_t rows, cols;        /* shared and reg: concrete */
	const char *dim[2];        /* global: the size syms */
	prog_op op;
	int op_line, op_col;
	int src;                   /* copy, load, cast: the tensor read;
				      mma: its A operand */
	int src2;                  /* mma: its B operand */
	int64_t bytes;             /* copy: bytes a thread moves */
	/* inferred, registers: the warp's part as a TV layout (32 lanes x
	 * values over a [wrows, wcols] slice; warp w's slice starts at row
	 * wrow * (w / warps[1]) or (w % warps[1]), by role) */
	prog_role role;
	int anchor_line, anchor_col;
	const lego_tv *frag;       /* the fragment tiled over the slice */
	int64_t wrows, wcols, values;
	int64_t *table;            /* [32 * values] slice indices */
	/* inferred, a load: the instruction, placed at every multiple of its
	 * footprint; reg[b * instr->values + j]: the register value that
	 * the instruction at block b writes with its value j */
	const lego_tv *instr;
	int by_rows;               /* an x4's matrices by rows (see below) */
	int64_t *reg;
	/* inferred, shared: the layout lego synth chose for its accesses */
	lego_synth_result synth;
	const lego_tv *access[2];  /* the copy, the load's instruction */
	lego_access_cost global;   /* the copy's side in global memory */
} prog_tensor;

enum { PROG_MAX_TENSORS = 32 };

typedef struct synth_prog {
	const char *file;
	const char *kernel;
	int64_t block[3];          /* BM, BN, BK */
	int64_t warps[2];          /* along M, along N */
	int64_t stages;
	int at[3][2];              /* line, col of block, warps, stages */
	int mma;                   /* the mma's tensor, -1 before parsing */
	int store, store_line, store_col;   /* store(global, reg) */
	int store_src;
	size_t n;
	prog_tensor t[PROG_MAX_TENSORS];
} synth_prog;

/* The built-in ldmatrix's matrix that holds matrix j of the instruction
 * (by_rows: an x4's matrices across the top half first). */
int64_t synth_ldm_matrix(int by_rows, int64_t j);

#endif
