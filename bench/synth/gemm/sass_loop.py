# sass_loop.py SASS - the instructions of a GEMM's main loop by opcode:
# the longest backward branch's body that holds HMMA, in the output of
# `cuobjdump -sass` (from the PyPI packages nvidia-cuda-cuobjdump and
# nvidia-cuda-nvdisasm where the CUDA toolkit has no cuobjdump).
import re,sys,collections
ins=[]
for l in open(sys.argv[1]):
    m=re.match(r'\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;',l)
    if m: ins.append((int(m.group(1),16),m.group(2).strip()))
best=None
for a,t in ins:
    m=re.search(r'BRA\s+0x([0-9a-f]+)',t)
    if m and int(m.group(1),16)<a:
        lo=int(m.group(1),16)
        body=[x for x in ins if lo<=x[0]<=a]
        if any('HMMA' in x[1] for x in body) and (best is None or len(body)>len(best)): best=body
c=collections.Counter()
for a,t in best:
    t=re.sub(r'^@!?U?P\w+\s+','',t)
    c[t.split()[0].split('.')[0]]+=1
print(sys.argv[1], 'loop instructions', len(best), hex(best[0][0]), hex(best[-1][0]))
for k,v in sorted(c.items(),key=lambda x:-x[1]): print(f'{k:12s}{v}')
