#!/usr/bin/env python3
"""wcxb pages whose gold is empty (WCXB scores them 1 only when the output is empty too): does
a page-level rule "output nothing when few words are kept / the confidence is low" pay? Reads a
`victor label --format jsonl-text` file of wcxb pages; prints the pages with the fewest kept
words, the empty-gold pages, and the mean F1 under each rule. Usage:
scripts/wcxb_empty_gold.py DEV.jsonl (dev pages only: choose on dev)."""
import json, re, sys
from collections import Counter
from pathlib import Path
D=str(Path(__file__).resolve().parent.parent.parent / 'shared' / 'data' / 'wcxb') + '/'
man={json.loads(l)['id']:json.loads(l) for l in open(D+'manifest.jsonl')}
sys.path.insert(0, str(Path(__file__).resolve().parent))
from victor_score import wcxb_f1 as f1, wcxb_words as W  # the one home of the page F1 (WCXB's measure)
rows=[]
for l in open(sys.argv[1]):
    o=json.loads(l); pid=o['source'].split('/')[-1].split('.')[0]; m=man[pid]
    g=open(D+m['gold']).read()
    rows.append(dict(id=pid,t=m['page_type'],f=f1(o['text'],g),kw=len(W(o['text'])),gw=len(W(g)),c=o['confidence'],dom=m['domain']))
print('pages',len(rows),'mean F1 %.4f'%(sum(r['f'] for r in rows)/len(rows)))
for r in sorted(rows,key=lambda r:r['kw'])[:40]:
    print("%s %-13s F1=%.3f kept=%5d gold=%5d conf=%.3f %s"%(r['id'],r['t'],r['f'],r['kw'],r['gw'],r['c'],r['dom']))
print('--- empty gold')
for r in rows:
    if r['gw']==0: print("%s %-13s F1=%.3f kept=%5d conf=%.3f %s"%(r['id'],r['t'],r['f'],r['kw'],r['c'],r['dom']))
# simulate: output nothing if kept < K
for K in [0,5,10,15,20,30,40,60,80,100]:
    tot=sum((1.0 if r['gw']==0 else 0.0) if r['kw']<K and r['kw']>0 else r['f'] for r in rows)
    print('K',K,'%.4f'%(tot/len(rows)))
for C in [0,0.2,0.3,0.4,0.5]:
    tot=sum((1.0 if r['gw']==0 else 0.0) if r['c']<C else r['f'] for r in rows)
    print('C',C,'%.4f'%(tot/len(rows)))
