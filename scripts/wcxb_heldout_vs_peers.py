#!/usr/bin/env python3
"""victor on held-out wcxb dev pages against the peers on the same pages, per kind of page.
Arguments: pairs NAME JSONL (`victor label --format jsonl-text` of the held-out pages, e.g. a
model trained on the other dev pages); the peers' per-page figures come from
eval/peers/wcxb-dev-pages.csv (scripts/compare.py wcxb --split dev). Prints a Markdown table."""
import json,re,csv,sys
from collections import Counter,defaultdict
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent
D=str(ROOT.parent / 'shared' / 'data' / 'wcxb') + '/'
man={json.loads(l)['id']:json.loads(l) for l in open(D+'manifest.jsonl')}
sys.path.insert(0, str(Path(__file__).resolve().parent))
from victor_score import wcxb_f1 as f1  # the one home of the page F1 (WCXB's measure)
runs={}
for name,path in zip(sys.argv[1::2],sys.argv[2::2]):
    v={}
    for l in open(path):
        o=json.loads(l); pid=o['source'].split('/')[-1].split('.')[0]
        v[pid]=f1(o['text'],open(D+man[pid]['gold']).read())
    runs[name]=v
ids=set(next(iter(runs.values())))
peer=defaultdict(dict)
for r in csv.DictReader(open(ROOT / 'eval' / 'peers' / 'wcxb-dev-pages.csv')):
    if r['id'] in ids: peer[r['tool']][r['id']]=float(r['F1'] or 0)
types=sorted({man[i]['page_type'] for i in ids})
def row(name,d):
    by=defaultdict(list)
    for i,f in d.items(): by[man[i]['page_type']].append(f)
    allv=list(d.values())
    return f"| {name} | {sum(allv)/len(allv):.3f} | "+" | ".join(f"{sum(by[t])/len(by[t]):.3f}" for t in types)+f" | {sum(f<.5 for f in allv)} |"
print("| tool | all ("+str(len(ids))+") | "+" | ".join(f"{t} ({sum(man[i]['page_type']==t for i in ids)})" for t in types)+" | F1 < .5 |")
print("|---|"+"---:|"*(len(types)+2))
for n,v in runs.items(): print(row(n,v))
for t in ['rs-trafilatura','trafilatura','resiliparse','readability']:
    if len(peer[t])==len(ids): print(row(t,peer[t]))
