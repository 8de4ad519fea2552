#!/usr/bin/env python3
"""How much of wcxb's dev gold the pages' JSON-LD holds (issue 52, item 4): for each kind of
page, the pages, those with JSON-LD text (string values of 5 words or more), the gold lines of 7
words or more, and those whose word 3-grams are mostly (> 50 %) in the JSON-LD text. Decides
whether "this block's text is in the structured data" is worth a feature. Usage:
scripts/jsonld_gold.py (reads ../shared/data/wcxb)."""
import json, gzip, re, sys, html
from collections import defaultdict
from pathlib import Path
D=str(Path(__file__).resolve().parent.parent.parent / 'shared' / 'data' / 'wcxb') + '/'
W=lambda t: re.findall(r"\w+", t.lower())
def strings(o, out):
    if isinstance(o, str):
        if len(o.split())>=5: out.append(html.unescape(re.sub(r'<[^>]+>',' ',o)))
    elif isinstance(o, dict):
        for v in o.values(): strings(v,out)
    elif isinstance(o, list):
        for v in o: strings(v,out)
def shingles(ws): return {tuple(ws[i:i+3]) for i in range(len(ws)-2)}
stat=defaultdict(lambda:[0,0,0,0,0])  # pages, pages with jsonld text, gold lines>=7w, gold lines found, words found
for l in open(D+'manifest.jsonl'):
    m=json.loads(l)
    if m['split']!='dev': continue
    raw=gzip.open(D+m['html']).read().decode('utf-8','replace')
    out=[]
    for s in re.findall(r'<script[^>]*application/ld\+json[^>]*>(.*?)</script>', raw, re.S|re.I):
        try: strings(json.loads(s), out)
        except Exception: pass
    sh=set()
    for s in out: sh|=shingles(W(s))
    st=stat[m['page_type']]; st[0]+=1
    if sh: st[1]+=1
    gold=open(D+m['gold']).read().split('\n')
    for g in gold:
        ws=W(g)
        if len(ws)<7: continue
        st[2]+=1
        s=shingles(ws)
        if s and len(s&sh)/len(s)>0.5: st[3]+=1
for k,v in stat.items(): print(k, v[:4], f"{v[3]/max(1,v[2]):.2%} of long gold lines in JSON-LD")
