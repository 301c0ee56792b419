"""The code that would support the answer raised an error; the answer cites its numbers anyway. Outputs and files
of a cell that raised are no evidence, whatever they printed before the error."""

from __future__ import annotations

from . import data
from .case import Case
from .cases_invented import COINCIDENCES
from .common import make, num, part, pct, raised
from .data import shown
from .scen_big import grid, sensors, training
from .scen_sales import drivers, regions
from .scen_tests import ab, houses


def _all_failed() -> list[Case]:
    r, gr = regions(), grid()
    rev = r["rev"]
    read = [raised("import pandas as pd\n\ndf = pd.read_csv('inputs/sales.xlsx')",
                   "FileNotFoundError: [Errno 2] No such file or directory: 'inputs/sales.xlsx'", 1),
            raised("df = pd.read_excel('inputs/sales.csv')",
                   "ValueError: Excel file format cannot be determined, you must specify an engine manually.", 2)]
    imports = [raised("from xgboost import XGBClassifier", "ModuleNotFoundError: No module named 'xgboost'", 1),
               raised("from lightgbm import LGBMClassifier", "ModuleNotFoundError: No module named 'lightgbm'", 2)]
    return [
        make("failed-01-nothing-read", "failed_code", r, ["the total revenue of each region",
                                                          "which region earns the most"],
             [part("a1", "; ".join(f"{k} {num(v)}" for k, v in rev.items()) + "."),
              part("a2", f"East, with {pct(r['share']['East'])} of the total.")],
             answered="FF", status="failed", cells=read,
             note="Both cells raised before the data was even read: no cell ran, whatever the answer says (its "
                  "figures happen to be the true ones)."),
        make("failed-02-no-library", "failed_code", gr, ["which hyperparameters give the best cross-validated AUC",
                                                         "what AUC they reach"],
             [part("a1", "learning_rate 0.03 with 800 trees of depth 4."), part("a2", "An AUC of 0.842.")],
             answered="FF", status="failed", cells=imports,
             note="Neither library could be imported, so no search ran and no figure has a source."),
    ]


def _some_failed() -> list[Case]:
    r, d, h, a, tr, se = regions(), drivers(), houses(), ab(), training(), sensors()
    rev = r["rev"]
    totals = raised(r.cells[1].code + "\nsummary = pd.DataFrame({'revenue': by_region, 'share': by_region / "
                    "by_region.sum()})\nsummary.to_csv('outputs/revenue by region/summary.csv')",
                    "OSError: Cannot save file into a non-existent directory: 'outputs/revenue by region'", 2,
                    printed=shown(rev))
    fit = d.cells[3]
    fit_fail = raised(fit.code + "\ncoefs = pd.DataFrame({'coef': model.params, 'std_err': model.bse, 'p_value': "
                      "model.pvalues})\ncoefs.to_csv('outputs/revenue_drivers.csv')\nprint(coefs.loc['discount', "
                      "'coef'])", "KeyError: 'discount'", 3, printed=fit.output,
                      files={"outputs/revenue_drivers.csv": d.cells[4].files["outputs/revenue_drivers.csv"]})
    hd = data.houses()
    mean_kept = float(hd.loc[hd["price"] < 1_000_000, "price"].mean())
    hood_fail = raised("kept = df[df['price'] < 1_000_000]\nprint('mean price:', kept['price'].mean())\n"
                       "print(kept.groupby('neighborhood')['price'].median())", "KeyError: 'neighborhood'", 2,
                       printed=f"mean price: {mean_kept}\n")
    hcells = h.fresh_cells()
    full = a.cells[2].files["outputs/ab_result.json"]
    partial = full[: full.rindex("\n}")] + ',\n  "n": '  # json.dump streams: the file holds what came before the error
    ab_fail = raised(a.cells[2].code.replace("json.dump(res, f, indent=2)", "json.dump({**res, 'n': rates['count']}, "
                     "f, indent=2)"), "TypeError: Object of type Series is not JSON serializable", 3,
                     printed=a.cells[2].output, files={"outputs/ab_result.json": partial})
    log = tr.cells[1].output
    crash = raised(tr.cells[1].code, "OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB", 2,
                   printed=log[: log.index("epoch 16 done")])
    agg_fail = raised("means = df.groupby('sensor').mean()\nprint(means['temp_c'])",
                      "TypeError: agg function failed [how->mean,dtype->object]", 3,
                      line="means = df.groupby('sensor').mean()")
    hot = f"{se['table'].loc['S07', 'mean']:.1f}"
    COINCIDENCES["failed-08-sensor-groupby"] = hot
    return [
        make("failed-03-printed-then-raised", "failed_code", r, ["the total revenue of each region"],
             [part("a1", "; ".join(f"{k} {v:,.2f}" for k, v in rev.items()) + ".")],
             answered="F", status="incomplete", cells=[r.fresh_cells()[0], totals],
             task="What is the total revenue of each region?",
             note="The totals were printed by a cell that then raised an OSError; the output of a cell that raised "
                  "is no evidence, even for what it printed before the error."),
        make("failed-04-file-then-raised", "failed_code", d, ["how strongly discount affects revenue"],
             [part("a1", f"Revenue falls by {abs(d['coef']['discount_pct']):.2f} per point of discount.",
                   "outputs/revenue_drivers.csv")],
             answered="F", status="incomplete", cells=[*d.fresh_cells()[:2], fit_fail],
             task="How strongly does discount affect revenue?",
             note="revenue_drivers.csv was written by a cell that then raised a KeyError; neither its file nor its "
                  "printed summary counts."),
        make("failed-05-retry-other-numbers", "failed_code", h, ["the mean house price",
                                                                 "the median price by neighbourhood"],
             [part("a1", f"The mean price is {num(mean_kept)}."),
              part("a2", ", ".join(f"{k} {num(v)}" for k, v in h["by"]["median"].items()) + ".",
                   "outputs/price_by_neighbourhood.csv")],
             answered="FT", status="incomplete", cells=[hcells[0], hood_fail, hcells[2]],
             task="What is the mean house price, and what is the median price in each neighbourhood?",
             note=f"The mean {mean_kept:,.0f} (prices under a million only) was printed by a cell that then raised; "
                  "the retry that ran computed only the neighbourhood medians."),
        make("failed-06-test-raised", "failed_code", a, ["whether page B raised conversion", "whether it is "
                                                         "significant"],
             [part("a1", f"Yes: {a['rate_b']:.4f} against {a['rate_a']:.4f}."),
              part("a2", f"Yes, p = {a['p_value']:.6f}.")],
             answered="TF", status="incomplete", cells=[*a.fresh_cells()[:2], ab_fail],
             task="Did page B raise conversion, and is the change significant?",
             note="The rates come from a cell that ran; the p-value only from the test cell, which raised a TypeError "
                  "after printing it."),
        make("failed-07-training-crashed", "failed_code", tr, ["the classifier's accuracy on held-out customers",
                                                               "its AUC"],
             [part("a1", f"{pct(tr['accuracy'])}."), part("a2", f"{tr['auc']:.3f}.")],
             answered="FF", status="incomplete", cells=[tr.fresh_cells()[0], crash],
             note="Training ran out of GPU memory after about 1 MB of log and evaluation never ran; the load cell "
                  "is the only one that succeeded."),
        make("failed-08-sensor-groupby", "failed_code", se, ["which sensor runs abnormally hot"],
             [part("a1", f"S07, averaging {hot} \u00b0C.")],
             answered="F", status="incomplete", cells=[*se.fresh_cells()[:2], agg_fail],
             task="Which sensor runs abnormally hot?",
             note=f"The averaging cell raised a TypeError; {hot} also occurs among the single readings in the 1.4 MB "
                  "dump of a cell that ran, a coincidence that is not an average."),
    ]


def cases() -> list[Case]:
    return _all_failed() + _some_failed()

