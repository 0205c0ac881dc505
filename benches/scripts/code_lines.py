#!/usr/bin/env python3
"""Code lines of the program (issue 32 point 7): every src/**/*.rs but the
test modules (inline `#[cfg(test)] mod x { ... }` and files declared as
`#[cfg(test)] mod x;`), with blank lines and `//` comments dropped.
Usage: python3 benches/scripts/code_lines.py [REPOSITORY [PATH...]]
With PATHs (files or folders under src/, e.g. net session/mod.rs), the
count of each of them too, one line each after the total."""
import os,re,sys
root=os.path.join(sys.argv[1] if len(sys.argv)>1 else '.','src')
files=[]
for d,_,fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'): files.append(os.path.join(d,f))
testfiles=set()
decl=re.compile(r'^\s*(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*;')
path_attr=re.compile(r'#\[path\s*=\s*"([^"]+)"\]')
for f in files:
    L=open(f,encoding='utf-8',errors='replace').read().split('\n')
    for i,l in enumerate(L):
        m=decl.match(l)
        if not m: continue
        attrs=[]
        j=i-1
        while j>=0 and L[j].strip().startswith('#['):
            attrs.append(L[j].strip()); j-=1
        if not any(a.startswith('#[cfg(test)]') for a in attrs): continue
        name=m.group(3)
        base=os.path.dirname(f)
        stem=os.path.basename(f)[:-3]
        p=[a for a in attrs if path_attr.search(a)]
        if p:
            testfiles.add(os.path.normpath(os.path.join(base,path_attr.search(p[0]).group(1)))); continue
        sub=base if stem in ('mod','lib','main') else os.path.join(base,stem)
        for c in (os.path.join(sub,name+'.rs'),os.path.join(sub,name,'mod.rs')):
            testfiles.add(os.path.normpath(c))
total=0
parts=sys.argv[2:]
by_part=dict.fromkeys(parts,0)
for f in files:
    if os.path.normpath(f) in testfiles: continue
    L=open(f,encoding='utf-8',errors='replace').read().split('\n')
    i=0
    while i<len(L):
        l=L[i]
        if l.startswith('#[cfg(test)]'):
            # skip the attribute and the item after it: to the next line '}' at column 0 for a block, else one line
            j=i+1
            while j<len(L) and L[j].strip().startswith('#['): j+=1
            if j<len(L) and L[j].rstrip().endswith('{'):
                k=j+1
                while k<len(L) and not L[k].startswith('}'): k+=1
                i=k+1; continue
            i=j+1; continue
        s=l.strip()
        if s and not s.startswith('//'):
            total+=1
            rel=os.path.relpath(f,root)
            for p in parts:
                if rel==p or rel.startswith(p.rstrip('/')+'/'): by_part[p]+=1
        i+=1
print(total)
for p in parts: print(by_part[p],p)
