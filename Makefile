# liblego build.  `make demo` runs the built-in example, `make check` builds
# and runs every test.  Sanitizer build: `make check SAN=1`.  Quiet by
# default; `make V=1` shows the commands.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
OPT     ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter
ifeq ($(SAN),1)
BUILD   := build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
OPT     := -O1 -g -fno-omit-frame-pointer $(SANFLAGS)
endif
# Only the API of include/lego.h leaves the shared library (lego.h marks it
# visible); position-independent code so one set of objects serves both.
CFLAGS  += $(OPT) $(WARN) -fPIC -fvisibility=hidden -D_POSIX_C_SOURCE=200809L
CPPFLAGS += -Iinclude -Isrc
# SQLite (the tuning cache) is opened with dlopen on first use
# (src/tune/sqlite_load.c), so that no command pays for loading it;
# SQLITE_LINKED=1 links it instead (for a static build).  The tuner's
# built-in runners compile candidates on threads (pthreads).
LDLIBS  += -lm -ldl -lpthread
ifeq ($(SQLITE_LINKED),1)
CPPFLAGS += -DLEGO_SQLITE_LINKED
LDLIBS   += -lsqlite3
endif
# Z3 proves what the built-in range reasoning cannot; optional, and loaded
# with dlopen at first use (src/smt/z3load.c), so no binary links it.
ifneq ($(NO_Z3),1)
ifneq ($(wildcard /usr/include/z3.h),)
CPPFLAGS += -DLEGO_HAVE_Z3
Z3_LIB   := $(shell readelf -d $$($(CC) -print-file-name=libz3.so) 2>/dev/null | \
              sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
endif
endif

VERSION  := $(shell sed -n 's/^\#define LEGO_VERSION "\(.*\)"/\1/p' include/lego.h)
SOMAJOR  := $(firstword $(subst ., ,$(VERSION)))
SONAME   := liblego.so.$(SOMAJOR)

LIB_SRC  := $(sort $(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/liblego.a
SHLIB    := $(BUILD)/liblego.so.$(VERSION)
CLI_SRC  := $(sort $(wildcard tools/lego/*.c))
CLI      := $(BUILD)/lego
MAN      := $(BUILD)/lego.1
TEST_SRC := $(sort $(wildcard tests/unit/*.c))
TESTS    := $(BUILD)/unit-tests
EXAMPLE  := $(BUILD)/api-example
BENCH    := $(BUILD)/bench-core
CORPUS   := $(BUILD)/bench-simplify
HEADERS  := include/lego.h $(wildcard src/*/*.h) $(wildcard tests/unit/*.h)

# The build's configuration: every object depends on this file, rewritten
# only when the configuration differs from the one the objects were built
# with, so `make NO_Z3=1` after `make` rebuilds what it must.
CONFIG   := $(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(LDLIBS) $(Z3_LIB)
STAMP    := $(BUILD)/config
ifeq ($(filter clean uninstall deps fuzz,$(MAKECMDGOALS)),)
$(shell mkdir -p $(BUILD); \
	[ "$$(cat $(STAMP) 2>/dev/null)" = '$(CONFIG)' ] || \
	printf '%s\n' '$(CONFIG)' > $(STAMP))
endif

# `make -s` prints nothing at all (the single-letter flags come first in
# MAKEFLAGS).
ifeq ($(V),1)
Q   :=
say := @:
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
Q   := @
say := @:
else
Q   := @
say := @printf '  %-4s %s\n'
endif

.PHONY: all deps demo check unit install uninstall fuzz bench clean
all: $(LIB) $(SHLIB) $(CLI) $(MAN) $(EXAMPLE)

$(BUILD)/%.o: %.c $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/src/smt/z3load.o: CPPFLAGS += $(if $(Z3_LIB),-DLEGO_Z3_LIB='"$(Z3_LIB)"')

$(LIB): $(LIB_OBJ)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(SHLIB): $(LIB_OBJ)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) $^ \
		$(LDLIBS) -o $@
	$(Q)ln -sf $(notdir $@) $(BUILD)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(BUILD)/liblego.so

$(CLI): $(CLI_SRC:%.c=$(BUILD)/%.o) $(LIB)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(TESTS): $(TEST_SRC:%.c=$(BUILD)/%.o) $(LIB)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(EXAMPLE): $(BUILD)/examples/api_example.o $(LIB)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BENCH): $(BUILD)/bench/bench_core.o $(LIB)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The simplifier against hand-written index expressions (bench/simplify).
$(CORPUS): $(BUILD)/bench/simplify/corpus.o $(LIB)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The manual page, made from the tool's own --help texts.
$(MAN): $(CLI) scripts/man.sh
	$(say) MAN $@
	$(Q)sh scripts/man.sh $(CLI) $(VERSION) > $@.tmp && mv $@.tmp $@

deps:
	@sh scripts/deps.sh

# The built-in example: the paper's figure 9 layout and a tiled GEMM.
demo: deps $(CLI)
	@sh examples/demo.sh $(CLI)

unit: $(TESTS)
	$(TESTS)

# The install suite installs this build to a temporary prefix: it is told
# the make variables (and sanitizer flags) of the build.
check: deps $(CLI) $(TESTS) $(EXAMPLE) $(SHLIB) $(CORPUS)
	@LEGO_MAKEVARS='BUILD=$(BUILD) SAN=$(SAN) NO_Z3=$(NO_Z3)' \
	 LEGO_SANFLAGS='$(SANFLAGS)' sh tests/run.sh $(BUILD)

bench: $(CLI) $(BENCH) $(CORPUS)
	@sh bench/run.sh $(BUILD)

# libFuzzer target for the language parser; FUZZ_SECONDS to run longer.
FUZZ_SECONDS ?= 60
fuzz:
	@sh fuzz/run.sh $(FUZZ_SECONDS)

LIBDIR := $(DESTDIR)$(PREFIX)/lib
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
install: $(LIB) $(SHLIB) $(CLI) $(MAN)
	$(Q)install -d $(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include \
	           $(DESTDIR)$(PREFIX)/bin $(MANDIR)
	$(Q)install -m 644 $(MAN) $(MANDIR)/lego.1
	$(Q)install -m 644 $(LIB) $(LIBDIR)/liblego.a
	$(Q)install -m 755 $(SHLIB) $(LIBDIR)/$(notdir $(SHLIB))
	$(Q)ln -sf $(notdir $(SHLIB)) $(LIBDIR)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(LIBDIR)/liblego.so
	$(Q)install -m 644 include/lego.h $(DESTDIR)$(PREFIX)/include/lego.h
	$(Q)install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/lego
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@LIBS@|$(LDLIBS)|g' lego.pc.in > $(LIBDIR)/pkgconfig/lego.pc
	$(say) INST $(DESTDIR)$(PREFIX)

uninstall:
	rm -f $(LIBDIR)/liblego.a $(LIBDIR)/liblego.so $(LIBDIR)/$(SONAME) \
	      $(LIBDIR)/liblego.so.$(VERSION) $(DESTDIR)$(PREFIX)/include/lego.h \
	      $(DESTDIR)$(PREFIX)/bin/lego $(LIBDIR)/pkgconfig/lego.pc \
	      $(MANDIR)/lego.1

clean:
	rm -rf build build-san build-noz3 build-fuzz
