# liblego build.  `make demo` runs the built-in example, `make check` builds
# and runs every test.  Sanitizer build: `make check SAN=1`.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
OPT     ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter
ifeq ($(SAN),1)
BUILD   := build-san
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
           -fno-sanitize-recover=all
endif
CFLAGS  += $(OPT) $(WARN) -D_POSIX_C_SOURCE=200809L
CPPFLAGS += -Iinclude -Isrc
LDLIBS  += -lm
# Z3 proves what the built-in range reasoning cannot; optional.
ifneq ($(NO_Z3),1)
ifneq ($(wildcard /usr/include/z3.h),)
CPPFLAGS += -DLEGO_HAVE_Z3
LDLIBS   += -lz3
endif
endif

LIB_SRC  := $(sort $(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/liblego.a
CLI_SRC  := $(sort $(wildcard tools/lego/*.c))
CLI      := $(BUILD)/lego
TEST_SRC := $(sort $(wildcard tests/unit/*.c))
TESTS    := $(BUILD)/unit-tests
EXAMPLE  := $(BUILD)/api-example
BENCH    := $(BUILD)/bench-core
CORPUS   := $(BUILD)/bench-simplify
HEADERS  := include/lego.h $(wildcard src/*/*.h) $(wildcard tests/unit/*.h)

.PHONY: all deps demo check unit install uninstall fuzz bench clean
all: $(LIB) $(CLI) $(EXAMPLE)

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(CLI): $(CLI_SRC:%.c=$(BUILD)/%.o) $(LIB)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

$(TESTS): $(TEST_SRC:%.c=$(BUILD)/%.o) $(LIB)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

$(EXAMPLE): $(BUILD)/examples/api_example.o $(LIB)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

$(BENCH): $(BUILD)/bench/bench_core.o $(LIB)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

# The simplifier against hand-written index expressions (bench/simplify).
$(CORPUS): $(BUILD)/bench/simplify/corpus.o $(LIB)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

deps:
	@sh scripts/deps.sh

# The built-in example: the paper's figure 9 layout and a tiled GEMM.
demo: deps $(CLI)
	@sh examples/demo.sh $(CLI)

unit: $(TESTS)
	$(TESTS)

check: deps $(CLI) $(TESTS) $(EXAMPLE) $(CORPUS)
	@sh tests/run.sh $(BUILD)

bench: $(CLI) $(BENCH) $(CORPUS)
	@sh bench/run.sh $(BUILD)

# libFuzzer target for the language parser; FUZZ_SECONDS to run longer.
FUZZ_SECONDS ?= 60
fuzz:
	@sh fuzz/run.sh $(FUZZ_SECONDS)

install: $(LIB) $(CLI)
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
	           $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/liblego.a
	install -m 644 include/lego.h $(DESTDIR)$(PREFIX)/include/lego.h
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/lego
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|0.1.0|g' \
	    -e 's|@LIBS@|$(LDLIBS)|g' lego.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/lego.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/liblego.a $(DESTDIR)$(PREFIX)/include/lego.h \
	      $(DESTDIR)$(PREFIX)/bin/lego $(DESTDIR)$(PREFIX)/lib/pkgconfig/lego.pc

clean:
	rm -rf build build-san build-noz3 build-fuzz
