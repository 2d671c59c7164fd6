/* kernel.c - the two printers of a lowered Lift kernel: OpenCL and CUDA.
 * The lowering (eval.c, write.c, mem.c, reduce.c) is one; it spells the
 * few target-specific things (work-item ids, barriers, local arrays, the
 * index expressions' dialect through lego_expr_print) with the target
 * table below, and this file prints the kernel's signature, its user
 * functions and the host launch code of each target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift/value.h"

static const lift_target targets[] = {
	[LIFT_TARGET_OPENCL] = {
		.lang = LEGO_LANG_OPENCL,
		.dims = "012",
		.id = {"(int)get_global_id(%c)", "(int)get_group_id(%c)",
		       "(int)get_local_id(%c)"},
		.step = {"(int)get_global_size(%c)", "(int)get_num_groups(%c)",
			 "(int)get_local_size(%c)"},
		.barrier = "barrier(CLK_LOCAL_MEM_FENCE);",
		.local = "__local ",
		.vec_open = "(%s%d)(",
		.global = "__global ",
		.comps = "0123456789abcdef",
		.max_width = 16,
	},
	[LIFT_TARGET_CUDA] = {
		.lang = LEGO_LANG_CUDA,
		.dims = "xyz",
		.id = {"(int)(blockIdx.%c * blockDim.%c + threadIdx.%c)",
		       "(int)blockIdx.%c", "(int)threadIdx.%c"},
		.step = {"(int)(gridDim.%c * blockDim.%c)", "(int)gridDim.%c",
			 "(int)blockDim.%c"},
		.barrier = "__syncthreads();",
		.local = "__shared__ ",
		.vec_open = "make_%s%d(",
		.global = "",
		.comps = "xyzw",
		.max_width = 4,
	},
};

const lift_target *lift_target_get(lift_target_kind t)
{
	return &targets[t];
}

static const char *scalar_c(lift_type_kind k)
{
	return k == LIFT_INT ? "int" : "float";
}

static lift_type_kind base_kind(const lift_type *t)
{
	while (t->kind == LIFT_ARRAY)
		t = t->elems[0];
	return t->kind;
}

/* Parameters bound to values: arrays as buffers, scalars by name. */
static lift_env *bind_params(lift_cc *cc)
{
	lift_env *env = NULL;
	for (size_t i = 0; i < cc->p->nparams; i++) {
		const lift_param *prm = &cc->p->params[i];
		lift_val *v;
		lift_type_kind k = base_kind(prm->type);
		if (k == LIFT_TUPLE)
			return lift_err(cc, cc->p->body, "parameter %s: tuples "
					"in memory are not supported yet",
					prm->name);
		if (prm->type->kind == LIFT_ARRAY)
			v = lift_val_array(cc, prm->type,
					   lift_view_mem(cc, prm->name));
		else
			v = lift_val_scalar(cc, k, prm->name);
		if (!v || !(env = lift_env_bind(cc, env, prm->name, v)))
			return NULL;
	}
	return env;
}

/* How the kernel's parameters are written: in the kernel's signature, in
 * the OpenCL launcher (cl_mem buffers) or in the CUDA one (pointers). */
typedef enum { ARGS_KERNEL, ARGS_CL_HOST, ARGS_CU_HOST } args_style;

static void kernel_args(lift_cc *cc, lego_sbuf *b, lift_type_kind out,
			args_style st)
{
	int cuda = cc->target == LIFT_TARGET_CUDA;
	const char *in_ptr = cuda ? "const %s *__restrict__ %s"
				  : "__global const %s *restrict %s";
	const char *sep = "";
	for (size_t i = 0; i < cc->p->nparams; i++) {
		const lift_param *prm = &cc->p->params[i];
		const char *c = scalar_c(base_kind(prm->type));
		int arr = prm->type->kind == LIFT_ARRAY;
		lego_sbuf_puts(b, sep);
		if (st == ARGS_CL_HOST)
			lego_sbuf_printf(b, "%s %s", !arr ? (*c == 'i' ? "cl_int"
								 : "cl_float")
							   : "cl_mem", prm->name);
		else if (arr)
			lego_sbuf_printf(b, st == ARGS_CU_HOST ? "const %s *%s"
							      : in_ptr, c,
					 prm->name);
		else
			lego_sbuf_printf(b, "%s%s %s", st == ARGS_KERNEL ? "const "
								   : "", c,
					 prm->name);
		sep = ", ";
	}
	if (st == ARGS_CL_HOST)
		lego_sbuf_printf(b, "%scl_mem out", sep);
	else if (st == ARGS_CU_HOST)
		lego_sbuf_printf(b, "%s%s *out", sep, scalar_c(out));
	else
		lego_sbuf_printf(b, cuda ? "%s%s *__restrict__ out"
					 : "%s__global %s *restrict out", sep,
				 scalar_c(out));
	/* a template's sizes are macros */
	for (size_t i = 0; i < (cc->p->as_template ? 0 : cc->p->nsizes); i++)
		lego_sbuf_printf(b, ", %s %s",
				 st == ARGS_CL_HOST ? "cl_int"
				 : st == ARGS_KERNEL ? "const int" : "int",
				 cc->p->sizes[i]);
}

/* NAME_out_len(sizes): the number of elements of out. */
static void out_len(lift_cc *cc, lego_sbuf *b, const lift_type *result)
{
	const lift_program *p = cc->p;
	lego_ctx *ctx = cc->ctx;
	char *len = lego_expr_print(ctx, lift_type_scalars(ctx, result),
				    LEGO_LANG_C);
	lego_sbuf_printf(b, "static size_t %s_out_len(", p->kernel);
	for (size_t i = 0; i < p->nsizes; i++)
		lego_sbuf_printf(b, "%s%s %s", i ? ", " : "",
				 cc->target == LIFT_TARGET_CUDA ? "int" : "cl_int",
				 p->sizes[i]);
	lego_sbuf_printf(b, "%s)\n{\n", p->nsizes ? "" : "void");
	for (size_t i = 0; i < p->nsizes; i++)
		lego_sbuf_printf(b, "\t(void)%s;\n", p->sizes[i]);
	lego_sbuf_printf(b, "\treturn (size_t)(%s);\n}\n\n", len ? len : "0");
	free(len);
}

static int dim_or_1(int n)
{
	return n ? n : 1;
}

static int group_items(const lift_program *p)
{
	return dim_or_1(p->local[0]) * dim_or_1(p->local[1]) *
	       dim_or_1(p->local[2]);
}

/* The CUDA condition that a block (`blockDim` in the kernel, `block` on
 * the host) is not the declared work-group. */
static void block_differs(const lift_program *p, const char *block, char *text,
			  size_t cap)
{
	snprintf(text, cap, "%s.x != %d || %s.y != %d || %s.z != %d", block,
		 dim_or_1(p->local[0]), block, dim_or_1(p->local[1]), block,
		 dim_or_1(p->local[2]));
}

static char *host_opencl(lift_cc *cc, const lift_type *result)
{
	const lift_program *p = cc->p;
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "/* Host code of the Lift kernel %s (lego lift "
			 "--host %s): include it after <CL/cl.h>. */\n",
			 p->kernel, p->file);
	out_len(cc, &b, result);
	lego_sbuf_printf(&b, "/* Runs the kernel over a %d-D range (local may be "
			 "NULL). */\nstatic cl_int %s_launch(cl_command_queue q, "
			 "cl_kernel k, ", cc->ndims, p->kernel);
	kernel_args(cc, &b, LIFT_FLOAT, ARGS_CL_HOST);
	lego_sbuf_printf(&b, ",\n\tconst size_t *global, const size_t *local)\n"
			 "{\n\tcl_int err;\n\tcl_uint a = 0;\n");
	for (size_t i = 0; i <= p->nparams + p->nsizes; i++) {
		const char *name = i < p->nparams ? p->params[i].name
				   : i == p->nparams ? "out"
				   : p->sizes[i - p->nparams - 1];
		lego_sbuf_printf(&b, "\tif ((err = clSetKernelArg(k, a++, "
				 "sizeof %s, &%s)))\n\t\treturn err;\n", name,
				 name);
	}
	lego_sbuf_printf(&b, "\treturn clEnqueueNDRangeKernel(q, k, %d, NULL, "
			 "global, local, 0, NULL, NULL);\n}\n", cc->ndims);
	return lego_sbuf_take(&b);
}

static char *host_cuda(lift_cc *cc, const lift_type *result)
{
	const lift_program *p = cc->p;
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "/* Host code of the Lift kernel %s (lego lift "
			 "--target cuda --host %s): include it after the "
			 "kernel, in the same .cu file. */\n", p->kernel,
			 p->file);
	out_len(cc, &b, result);
	lego_sbuf_printf(&b, "/* Runs the kernel on grid x block (the %d-D "
			 "NDRange of OpenCL is grid * block); pointers are "
			 "device memory. */\nstatic cudaError_t %s_launch(",
			 cc->ndims, p->kernel);
	kernel_args(cc, &b, base_kind(result), ARGS_CU_HOST);
	lego_sbuf_printf(&b, ",\n\tdim3 grid, dim3 block, cudaStream_t s)\n{\n");
	if (p->local[0]) {
		char differs[128];
		block_differs(p, "block", differs, sizeof differs);
		lego_sbuf_printf(&b, "\tif (%s)\n\t\treturn cudaErrorInvalidValue;"
				 "\n", differs);
	}
	lego_sbuf_printf(&b, "\t%s<<<grid, block, 0, s>>>(", p->kernel);
	for (size_t i = 0; i <= p->nparams + p->nsizes; i++)
		lego_sbuf_printf(&b, "%s%s", i ? ", " : "",
				 i < p->nparams ? p->params[i].name
				 : i == p->nparams ? "out"
				 : p->sizes[i - p->nparams - 1]);
	lego_sbuf_printf(&b, ");\n\treturn cudaGetLastError();\n}\n");
	return lego_sbuf_take(&b);
}

static char *kernel_source(lift_cc *cc, const lift_type *t, const char *decls,
			   const char *body)
{
	const lift_program *p = cc->p;
	int cuda = cc->target == LIFT_TARGET_CUDA;
	lego_sbuf k = {0};
	lego_sbuf_printf(&k, "/* Generated by lego lift%s from %s. */\n",
			 cuda ? " --target cuda" : "", p->file);
	for (size_t i = 0; i < p->nfuns; i++)
		lego_sbuf_printf(&k, "\n%s%s\n", cuda ? "__device__ " : "",
				 p->funs[i].text);
	const int *l = p->local;
	lego_sbuf_puts(&k, cuda ? "\nextern \"C\" __global__ " : "\n__kernel ");
	if (l[0] && cuda)
		lego_sbuf_printf(&k, "__launch_bounds__(%d) ", group_items(p));
	else if (l[0])
		lego_sbuf_printf(&k, "__attribute__((reqd_work_group_size(%d, %d, "
				 "%d))) ", l[0], dim_or_1(l[1]), dim_or_1(l[2]));
	lego_sbuf_printf(&k, "void %s(", p->kernel);
	kernel_args(cc, &k, base_kind(t), ARGS_KERNEL);
	lego_sbuf_puts(&k, ")\n{\n");
	/* OpenCL refuses another work-group size at the launch; a CUDA
	 * kernel launched with another block stops rather than compute
	 * a wrong result (its mapLcl loops stride by the declared size) */
	if (l[0] && cuda) {
		char differs[128];
		block_differs(p, "blockDim", differs, sizeof differs);
		lego_sbuf_printf(&k, "\tif (%s)\n\t\t__trap();\n", differs);
	}
	lego_sbuf_printf(&k, "%s%s}\n", decls ? decls : "", body);
	return lego_sbuf_take(&k);
}

int lift_compile(lego_ctx *ctx, const lift_program *p,
		 lift_target_kind target, lift_kernel *out)
{
	lift_cc cc = {.ctx = ctx, .p = p, .indent = 1, .ndims = 1,
		      .target = target, .tgt = lift_target_get(target)};
	memset(out, 0, sizeof *out);
	lift_env *env = bind_params(&cc);
	if (!env && p->nparams)
		goto fail;
	lift_type *t = lift_lower(&cc, env);
	if (!t)
		goto fail;
	if (base_kind(t) == LIFT_TUPLE) {
		lift_err(&cc, p->body, "the result holds tuples");
		goto fail;
	}
	char *body = lift_body_finish(&cc);
	char *decls = lego_sbuf_take(&cc.decls);
	if (!body) {
		free(decls);
		goto fail;
	}
	out->source = kernel_source(&cc, t, decls, body);
	free(body);
	free(decls);
	out->host = target == LIFT_TARGET_CUDA ? host_cuda(&cc, t)
					       : host_opencl(&cc, t);
	out->result = t;
	out->ndims = cc.ndims;
	out->assumed = lego_sbuf_take(&cc.assumed);
	memcpy(out->range, cc.range, sizeof out->range);
	memcpy(out->range_wrg, cc.range_wrg, sizeof out->range_wrg);
	out->local_bytes = cc.local_bytes;
	if (!out->source || !out->host || !out->assumed) {
		lift_kernel_free(out);
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	return 0;
fail:
	lift_pipe_drop(&cc);
	free(lego_sbuf_take(&cc.out));
	free(lego_sbuf_take(&cc.decls));
	free(lego_sbuf_take(&cc.assumed));
	return -1;
}

void lift_kernel_free(lift_kernel *k)
{
	free(k->source);
	free(k->host);
	free(k->assumed);
	k->source = k->host = k->assumed = NULL;
}
