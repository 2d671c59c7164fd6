/* tune.h - the auto-tuner: parameter spaces, search, runners, the cache
 * (the door of src/tune; docs/tuning.md).
 *
 * The tunable parameters and their constraints come from a spec (`tune`
 * declarations, lego_spec_tune()).  A space holds every configuration
 * that meets the constraints, generated as ATF's chain of trees: the
 * parameters are bound in declaration order and each constraint is
 * checked as soon as its last parameter is bound, so a subtree that
 * breaks one is never entered.  A search proposes configurations and is
 * told their costs; a runner measures one; the cache remembers every
 * measurement, so nothing is measured twice. */
#ifndef LEGO_TUNE_H
#define LEGO_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "lego.h"

/* ----------------------------------------------------------------- space */

typedef struct lego_tune_space {
	size_t nparams;                    /* the free parameters */
	const lego_tune_param **params;
	size_t nconfigs;
	uint16_t *configs;                 /* nconfigs x nparams value indices,
					      in lexicographic order */
	double raw;                        /* size of the cross product */
	size_t checks;                     /* constraint evaluations */
	double seconds;                    /* time to generate */
} lego_tune_space;

/* Generates the space of spec's free parameters.  Every sym a constraint
 * mentions must be given by -D.  LEGO_ERR with a message otherwise, or
 * when the space would exceed max_configs (0: no limit). */
int lego_tune_space_build(lego_ctx *ctx, const lego_spec *spec,
			  size_t max_configs, lego_tune_space *out);
void lego_tune_space_free(lego_tune_space *s);
const uint16_t *lego_tune_space_config(const lego_tune_space *s, size_t i);
int64_t lego_tune_space_value(const lego_tune_space *s, size_t i, size_t p);
/* The index of the configuration cfg, or SIZE_MAX if it breaks a
 * constraint. */
size_t lego_tune_space_find(const lego_tune_space *s, const uint16_t *cfg);
/* "BM=64 BN=32 SA=1" (the cache's key, -D values), or with labels
 * "BM=64 BN=32 SA=Row(BM, BK)" (malloc'ed). */
char *lego_tune_space_describe(const lego_tune_space *s, size_t i,
			       int labels);

/* ---------------------------------------------------------------- search */

typedef enum lego_tune_method {
	LEGO_TUNE_EXHAUSTIVE,
	LEGO_TUNE_RANDOM,
	LEGO_TUNE_ANNEAL,
	LEGO_TUNE_BANDIT        /* AUC bandit over random, annealing and
				   local search around the best */
} lego_tune_method;

/* 0 and the method for a name ("exhaustive", ..), -1 if unknown. */
int lego_tune_method_parse(const char *name, lego_tune_method *out);
const char *lego_tune_method_name(lego_tune_method m);

typedef struct lego_tune_search lego_tune_search;

lego_tune_search *lego_tune_search_new(const lego_tune_space *s,
				       lego_tune_method m, uint64_t seed);
void lego_tune_search_free(lego_tune_search *t);
/* The next configuration to measure, or SIZE_MAX when none is left.
 * Several may be proposed before their costs are told (a batch
 * measured together); none is proposed twice. */
size_t lego_tune_search_next(lego_tune_search *t);
/* The cost of configuration i (lower is better; INFINITY: it failed). */
void lego_tune_search_tell(lego_tune_search *t, size_t i, double cost);

/* Predicted costs (lego_tune_model_predict) to order the search by, or
 * to prune the configurations predicted more than prune times the best
 * prediction (prune <= 0: order only).  Exhaustive search visits the
 * configurations in ascending prediction, the other strategies start
 * from the best predicted; a configuration predicted INFINITY (it cannot
 * run) comes last, and is pruned whenever prune > 0.  prior has
 * s->nconfigs entries and must live as long as t. */
void lego_tune_search_prior(lego_tune_search *t, const double *prior,
			    double prune);
/* Configurations the search may still propose (after pruning). */
size_t lego_tune_search_left(const lego_tune_search *t);

/* ------------------------------------------------------------ cost model */

/* An estimate of a configuration's time on a GPU before measuring it,
 * from its occupancy, its waves and its shared-memory bank conflicts.
 * The spec describes a configuration's resources with `let`s, evaluated
 * with the configuration's values (each optional):
 *   model_smem     bytes of shared memory a block uses (0)
 *   model_threads  threads of a block (128)
 *   model_regs     registers a thread uses (32; above 255 they spill:
 *                  twice the time)
 *   model_blocks   blocks of the grid (1)
 *   model_work     the time of one block alone, in any unit (1)
 * Blocks resident on an SM = the fewest that shared memory, threads,
 * registers and the block limit allow (none: the configuration cannot
 * run, INFINITY); they share the SM, hiding latency up to `saturate`
 * threads; the grid runs in waves of sms x resident blocks:
 *   time = waves x resident x work / min(1, resident x threads /
 *          saturate) x conflicts
 * where conflicts is the mean, over the layouts named in banks, of the
 * shared-memory wavefronts per ideal (lego_analyze_banks) of a warp
 * reading the layout's first row and its first column (4-byte
 * elements). */
typedef struct lego_tune_gpu {
	int sms;
	int64_t smem_per_sm, smem_per_block, threads_per_sm, regs_per_sm;
	int blocks_per_sm, saturate;
} lego_tune_gpu;

/* The H100's figures (SXM, 132 SMs, 228 KiB of shared memory an SM). */
lego_tune_gpu lego_tune_gpu_h100(void);

/* The spec of a configuration (its defines): a callback, so that the
 * model reads the spec the way the caller instantiates it (lego_gen_spec
 * for a template).  NULL with a message in ctx. */
typedef lego_spec *(*lego_tune_spec_of)(void *user, lego_ctx *ctx,
					const lego_define *defs, size_t ndefs);

/* pred[i] for every configuration of s (fixed: the problem's defines;
 * banks: layout names separated by commas, or NULL).  LEGO_ERR with a
 * message when a spec cannot be built or a `model_` let evaluated. */
int lego_tune_model_predict(lego_ctx *ctx, const lego_tune_space *s,
			    const lego_tune_gpu *gpu, const char *banks,
			    const lego_define *fixed, size_t nfixed,
			    lego_tune_spec_of spec_of, void *user,
			    double *pred);

/* --------------------------------------------------------------- runners */

/* Measures one candidate: the generated kernel text and the defines that
 * made it.  0 with *ms set, or -1 with the reason in why (a failure to
 * compile, a wrong result, a timeout: recorded, never fatal). */
typedef struct lego_tune_runner {
	const char *device;     /* cache key: what it measures on */
	const char *driver;     /* cache key: compiler, driver versions */
	int (*measure)(struct lego_tune_runner *r, const char *kernel,
		       const lego_define *defs, size_t ndefs, double *ms,
		       char *why, size_t whycap);
	void (*free)(struct lego_tune_runner *r);
	/* Optional, for runners that compile (NULL: measure does it all).
	 * prepare compiles one candidate and may be called from several
	 * threads at once (lego_tune_opts.jobs); NULL with the reason in why
	 * when it fails.  measure_prepared then measures it, one at a time,
	 * and release frees it. */
	void *(*prepare)(struct lego_tune_runner *r, const char *kernel,
			 const lego_define *defs, size_t ndefs, char *why,
			 size_t whycap);
	int (*measure_prepared)(struct lego_tune_runner *r, void *prepared,
				const lego_define *defs, size_t ndefs,
				double *ms, char *why, size_t whycap);
	void (*release)(struct lego_tune_runner *r, void *prepared);
} lego_tune_runner;

/* `--run CMD`: CMD with {kernel} replaced by the path of a file holding
 * the kernel and {NAME} by the value of define NAME, run by /bin/sh under
 * a time limit; the last number it prints is the time in ms; a non-zero
 * exit is a failure.  ext: the kernel file's suffix (".py", ".cl"). */
lego_tune_runner *lego_tune_runner_cmd(const char *cmd, const char *ext,
				       double timeout_s);

/* The built-in runners (OpenCL, CUDA) launch one kernel over buffers
 * whose sizes are expressions of the defines, check the outputs against
 * those of a reference kernel run on the same inputs, and time it. */
typedef enum lego_tune_elem {
	LEGO_TUNE_F32,
	LEGO_TUNE_F16,
	LEGO_TUNE_I32, /* compared exactly, poisoned with INT32_MIN */
	LEGO_TUNE_I64  /* compared exactly, poisoned with INT64_MIN */
} lego_tune_elem;

/* "f32", "f16", "i32" or "i64", the first len characters of s: 0 and
 * the type in *out, -1 for anything else. */
int lego_tune_elem_parse(const char *s, size_t len, lego_tune_elem *out);

typedef struct lego_tune_launch {
	const char *kernel;     /* the entry point, in candidate and reference */
	/* The kernel's arguments in order, "a:M*K b:K*N c:M*N:out M:int":
	 * each a buffer of NAME:SIZE elements (an expression of the
	 * defines), ":out" when the kernel writes it (compared with the
	 * reference's), then ":f32", ":f16", ":i32" or ":i64", its element
	 * type when it is not elem's, or a scalar passed by value, NAME:int (32 bits) or
	 * NAME:long (64 bits), whose value is the define NAME, or
	 * NAME:int=EXPR, an expression of the defines. */
	const char *args;
	lego_tune_elem elem;    /* the element type of a buffer not given one */
	/* Work-items (OpenCL's global size, CUDA's threads) and work-group
	 * (block) size per dimension, "M*N/TM" or "N, M/BM": expressions of
	 * the defines, 1 to 3 of them; local NULL: the runtime's choice
	 * (OpenCL) or 128 (CUDA). */
	const char *global, *local;
	const char *reference;  /* the reference kernel's source text */
	/* The reference's work-items and work-group size (NULL: the
	 * candidates'; they change with the parameters, the reference runs
	 * once a problem). */
	const char *ref_global, *ref_local;
	/* relative, 0: 1e-3 (f32) or 2e-2 (f16); integers compare exactly */
	double tolerance;
	double timeout_s;       /* one launch; 0: 10 s */
	int reps;               /* timed launches, the fastest kept; 0: 5 */
} lego_tune_launch;

/* OpenCL through the ICD loader (libOpenCL, dlopen'ed: nothing links
 * it), on device `device` (0: the first of the first platform): the
 * kernels compile in parallel (prepare), a launch that passes its time
 * limit is recorded as timed out.  NULL with a message in err when no
 * OpenCL device is there.  The launch is copied. */
lego_tune_runner *lego_tune_runner_opencl(const lego_tune_launch *l,
					  int device, char *err, size_t errcap);
/* CUDA through the driver API and NVRTC (libcuda, libnvrtc: dlopen'ed;
 * LEGO_NVRTC_LIB names another libnvrtc): kernels compiled to the
 * device's architecture in parallel, timed with events, the L2 cache
 * flushed before each launch.  Kernels are extern "C". */
lego_tune_runner *lego_tune_runner_cuda(const lego_tune_launch *l,
					int device, char *err, size_t errcap);

/* ----------------------------------------------------------------- cache */

typedef struct lego_tune_cache lego_tune_cache;

/* What a measurement is of, besides its configuration. */
typedef struct lego_tune_key {
	const char *device, *driver;
	const char *template_hash;   /* of the template and its spec */
	const char *problem;         /* the -D values of the syms */
} lego_tune_key;

/* NULL with a message in err on failure. */
lego_tune_cache *lego_tune_cache_open(const char *path, char *err,
				      size_t errcap);
void lego_tune_cache_close(lego_tune_cache *c);
/* 1 and the recorded result (*ms INFINITY for a failure), 0 if absent. */
int lego_tune_cache_get(lego_tune_cache *c, const lego_tune_key *k,
			const char *config, double *ms);
int lego_tune_cache_put(lego_tune_cache *c, const lego_tune_key *k,
			const char *config, double ms, const char *why);

/* One recorded measurement, in the order measured. */
typedef struct lego_tune_record {
	char *config, *why, *template_hash, *problem, *device;
	double ms;
} lego_tune_record;

/* The re-measurement of the best (lego_tune_opts.remeasure): the median
 * of rounds rounds of each of configs[0..n) (INFINITY: it failed), and
 * each one's times ("0.11 0.12 .." ms, in round order).  _put replaces
 * the key's previous re-measurement; _get: 1 and the median of config
 * if recorded with as many rounds, 0 if not. */
int lego_tune_cache_final_put(lego_tune_cache *c, const lego_tune_key *k,
			      char *const *configs, const double *ms,
			      char *const *times, size_t n, int rounds);
int lego_tune_cache_final_get(lego_tune_cache *c, const lego_tune_key *k,
			      const char *config, int rounds, double *ms);
/* The key's re-measured configurations (a NULL field matches any): ms
 * the median, why the times of its rounds. */
int lego_tune_cache_finals(lego_tune_cache *c, const lego_tune_key *k,
			   lego_tune_record **out, size_t *n);

/* Every record of key (template_hash and problem; a NULL field matches
 * any), in the order measured.  Caller frees with
 * lego_tune_records_free. */
int lego_tune_cache_history(lego_tune_cache *c, const lego_tune_key *k,
			    lego_tune_record **out, size_t *n);
void lego_tune_records_free(lego_tune_record *r, size_t n);

/* The best successful record of key (a NULL field matches any): the
 * lowest median of the re-measured configurations when there are any,
 * else the lowest measurement: 1 with *config (malloc'ed) and *ms, 0 if
 * none, -1 on error. */
int lego_tune_cache_best(lego_tune_cache *c, const lego_tune_key *k,
			 char **config, double *ms);

/* ------------------------------------------------------------------ keys */

/* The template's key: FNV-1a of its text and of the spec file (when
 * given), in 16 hex digits; -1 if the spec cannot be read. */
int lego_tune_template_hash(const char *tpl, size_t len,
			    const char *spec_path, char out[17]);
/* The problem's key: "K=64 M=128 N=128", the defines sorted by name
 * (malloc'ed). */
char *lego_tune_problem_key(const lego_define *defs, size_t n);
/* "BM=64 BN=32" as defines (one malloc'ed block, names inside it), NULL
 * if malformed. */
lego_define *lego_tune_config_parse(const char *config, size_t *n);

/* ---------------------------------------------------------------- driver */

typedef struct lego_tune_opts {
	lego_tune_method method;
	uint64_t seed;
	size_t max_evals;            /* 0: the whole space */
	double max_seconds;          /* 0: no limit */
	int progress;                /* best-so-far on stderr */
	/* Candidates prepared (compiled) at once, each on a thread of its
	 * own, when the runner can prepare; 0 or 1: one at a time.  The
	 * search proposes a batch of jobs configurations before it is told
	 * their costs: a seed and jobs give one sequence. */
	int jobs;
	/* Predicted costs (lego_tune_model_predict), NULL: none; and the
	 * pruning factor (lego_tune_search_prior). */
	const double *prior;
	double prune;
	/* After the search, the remeasure fastest configurations are timed
	 * again in rounds interleaved rounds (A B C D A B C D ..), and the
	 * one with the lowest median of its rounds is chosen: a single
	 * measurement is one draw, and the search keeps the luckiest.
	 * 0: none (the search's best stands); rounds 0: 5. */
	size_t remeasure;
	int rounds;
} lego_tune_opts;

typedef struct lego_tune_result {
	size_t evals;                /* configurations evaluated */
	size_t measured;             /* of which measured (not cached) */
	size_t failed;
	size_t best;                 /* index in the space; SIZE_MAX: none */
	double best_ms;              /* re-measured: the median of its rounds */
	size_t finalists;            /* configurations re-measured */
	int rounds;                  /* their rounds */
	size_t remeasured;           /* measurements made (0: from the cache) */
	double seconds;
} lego_tune_result;

/* Instantiates one configuration: the kernel text for defines defs
 * (malloc'ed), NULL with a message in why. */
typedef char *(*lego_tune_instantiate)(void *user, const lego_define *defs,
				       size_t ndefs, char *why, size_t whycap);

/* Searches the space: each configuration proposed is looked up in the
 * cache or instantiated, measured and recorded.  fixed: defines added to
 * every instantiation (the problem sizes). */
int lego_tune_run(lego_ctx *ctx, const lego_tune_space *s,
		  const lego_tune_opts *o, lego_tune_runner *r,
		  lego_tune_cache *cache, const lego_tune_key *key,
		  const lego_define *fixed, size_t nfixed,
		  lego_tune_instantiate inst, void *user,
		  lego_tune_result *res);

#endif
