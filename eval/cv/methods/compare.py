# Paired comparison of `victor cv --csv` runs: compare.py DIR NAME... (DIR/base.csv against DIR/NAME.csv, fold by fold)
import csv,sys,statistics as st
def load(n):
    return {r['measure']:[float(r[f'fold{i}']) for i in range(1,6)] for r in csv.DictReader(open(f'{sys.argv[1]}/{n}.csv'))}
base=load('base')
keys=['Viterbi F1','Viterbi text-level F1 (macro)','T=0.50 F1','T=0.50 text-level F1 (macro)','expected-F1 F1','expected-F1 text-level F1 (macro)']
print('| features added | '+' | '.join(keys)+' |')
print('|---|'+'---:|'*len(keys))
print('| none (article recipe) | '+' | '.join(f"{100*st.mean(base[k]):.2f}" for k in keys)+' |')
for n in sys.argv[2:]:
    v=load(n); cells=[]
    for k in keys:
        d=[a-b for a,b in zip(v[k],base[k])]
        cells.append(f"{100*st.mean(v[k]):.2f} ({100*st.mean(d):+.2f} ± {100*st.stdev(d):.2f}; {sum(x>0 for x in d)}/5 folds up)")
    print(f'| {n} | '+' | '.join(cells)+' |')
