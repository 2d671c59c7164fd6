/* runner_cmd.c - the generic runner: a shell command measures the kernel
 * and prints its time; anything else (a non-zero exit, no number, the
 * time limit) is a failure of that candidate. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "expr/sbuf.h"
#include "tune/tune.h"

#define OUTPUT_CAP 65536

typedef struct cmd_runner {
	lego_tune_runner base;
	char *cmd, *ext, *dir, *device;
	double timeout_s;
	unsigned serial;
} cmd_runner;

/* cmd with {kernel} and {NAME} replaced; other braces are kept. */
static char *expand(const char *cmd, const char *path, const lego_define *d,
		    size_t n)
{
	lego_sbuf b = {0};
	for (const char *s = cmd; *s;) {
		const char *close = *s == '{' ? strchr(s, '}') : NULL;
		const char *value = NULL;
		char num[32];
		size_t len = close ? (size_t)(close - s - 1) : 0;
		if (close && len == 6 && !strncmp(s + 1, "kernel", 6))
			value = path;
		for (size_t i = 0; close && !value && i < n; i++)
			if (strlen(d[i].name) == len &&
			    !strncmp(s + 1, d[i].name, len)) {
				snprintf(num, sizeof num, "%lld",
					 (long long)d[i].value);
				value = num;
			}
		if (value) {
			lego_sbuf_puts(&b, value);
			s = close + 1;
		} else {
			lego_sbuf_printf(&b, "%c", *s++);
		}
	}
	lego_sbuf_puts(&b, "");
	return lego_sbuf_take(&b);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Runs cmd under /bin/sh, its stdout and stderr into out; returns the
 * wait status, or -1 when killed at the time limit. */
static int run_shell(const char *cmd, double timeout_s, char *out,
		     size_t cap)
{
	int fd[2];
	size_t len = 0;
	out[0] = '\0';
	if (pipe(fd))
		return -2;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -2;
	}
	if (pid == 0) {
		setpgid(0, 0); /* its own group: a timeout kills all of it */
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	double deadline = now() + timeout_s;
	int timed_out = 0;
	for (;;) {
		double left = deadline - now();
		struct pollfd p = {fd[0], POLLIN, 0};
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		int r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		char buf[4096];
		ssize_t got = read(fd[0], buf, sizeof buf);
		if (got <= 0)
			break;
		/* keep the tail: the time is printed last */
		size_t g = (size_t)got;
		if (len + g >= cap) {
			size_t drop = len + g - (cap - 1);
			if (drop > len)
				drop = len;
			memmove(out, out + drop, len - drop);
			len -= drop;
		}
		if (g >= cap)
			g = cap - 1;
		memcpy(out + len, buf + got - (ssize_t)g, g);
		len += g;
		out[len] = '\0';
	}
	close(fd[0]);
	if (timed_out)
		kill(-pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return timed_out ? -1 : status;
}

/* The last number of the text. */
static int last_number(const char *text, double *v)
{
	int found = 0;
	for (const char *s = text; *s; s++) {
		if ((*s >= '0' && *s <= '9') ||
		    (*s == '.' && s[1] >= '0' && s[1] <= '9')) {
			if (s > text && ((s[-1] >= 'a' && s[-1] <= 'z') ||
					 (s[-1] >= 'A' && s[-1] <= 'Z') ||
					 s[-1] == '_'))
				continue; /* part of a name like fp16 */
			char *end;
			double x = strtod(s, &end);
			if (end > s) {
				*v = x;
				found = 1;
				s = end - 1;
			}
		}
	}
	return found;
}

/* The last line of text, for a failure's reason. */
static void last_line(const char *text, char *why, size_t cap)
{
	size_t len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	size_t start = len;
	while (start && text[start - 1] != '\n')
		start--;
	snprintf(why, cap, "%.*s", (int)(len - start), text + start);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int bad = fputs(text, f) < 0;
	return fclose(f) || bad ? -1 : 0;
}

static int cmd_measure(lego_tune_runner *base, const char *kernel,
		       const lego_define *defs, size_t ndefs, double *ms,
		       char *why, size_t whycap)
{
	cmd_runner *r = (cmd_runner *)base;
	char path[4096];
	snprintf(path, sizeof path, "%s/kernel%u%s", r->dir, r->serial++,
		 r->ext);
	if (write_file(path, kernel)) {
		snprintf(why, whycap, "cannot write %s", path);
		return -1;
	}
	char *cmd = expand(r->cmd, path, defs, ndefs);
	char *out = malloc(OUTPUT_CAP);
	int rc = -1;
	if (!cmd || !out) {
		snprintf(why, whycap, "out of memory");
	} else {
		int st = run_shell(cmd, r->timeout_s, out, OUTPUT_CAP);
		if (st == -1)
			snprintf(why, whycap, "timed out after %g s",
				 r->timeout_s);
		else if (st < 0)
			snprintf(why, whycap, "cannot run /bin/sh");
		else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			last_line(out, why, whycap);
		else if (!last_number(out, ms) || !(*ms > 0))
			snprintf(why, whycap, "printed no time");
		else
			rc = 0;
		if (rc && !*why)
			snprintf(why, whycap, "failed (exit status %d)",
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	free(out);
	free(cmd);
	remove(path);
	return rc;
}

static void cmd_free(lego_tune_runner *base)
{
	cmd_runner *r = (cmd_runner *)base;
	if (r->dir)
		rmdir(r->dir);
	free(r->cmd);
	free(r->ext);
	free(r->dir);
	free(r->device);
	free(r);
}

lego_tune_runner *lego_tune_runner_cmd(const char *cmd, const char *ext,
				       double timeout_s)
{
	cmd_runner *r = calloc(1, sizeof *r);
	char dir[] = "/tmp/lego-tune-XXXXXX";
	if (!r)
		return NULL;
	r->cmd = strdup(cmd);
	r->ext = strdup(ext ? ext : "");
	r->dir = mkdtemp(dir) ? strdup(dir) : NULL;
	size_t dlen = strlen(cmd) + 8;
	r->device = malloc(dlen);
	if (!r->cmd || !r->ext || !r->dir || !r->device) {
		cmd_free(&r->base);
		return NULL;
	}
	snprintf(r->device, dlen, "cmd:%s", cmd);
	r->timeout_s = timeout_s > 0 ? timeout_s : 60;
	r->base = (lego_tune_runner){.device = r->device, .driver = "",
				     .measure = cmd_measure, .free = cmd_free};
	return &r->base;
}
