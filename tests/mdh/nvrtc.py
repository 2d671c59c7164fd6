"""nvrtc.py FILE.cu - compiles FILE with NVRTC for sm_90 (as lego tune
--runner cuda does), through libnvrtc by ctypes: exit 0 when it
compiles, else the log and 1; 77 when there is no libnvrtc."""
import ctypes
import ctypes.util
import os
import sys


def load():
    names = [os.environ.get("LEGO_NVRTC_LIB"), "libnvrtc.so",
             "/usr/local/cuda/lib64/libnvrtc.so", ctypes.util.find_library("nvrtc")]
    for n in names:
        if n:
            try:
                return ctypes.CDLL(n)
            except OSError:
                pass
    return None


lib = load()
if lib is None:
    sys.exit(77)
src = open(sys.argv[1], "rb").read()
prog = ctypes.c_void_p()
if lib.nvrtcCreateProgram(ctypes.byref(prog), src, sys.argv[1].encode(),
                          0, None, None):
    sys.exit("nvrtcCreateProgram failed")
opts = (ctypes.c_char_p * 1)(b"--gpu-architecture=sm_90")
rc = lib.nvrtcCompileProgram(prog, 1, opts)
if rc:
    n = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetProgramLog(prog, log)
    print(log.value.decode(errors="replace"))
sys.exit(1 if rc else 0)
