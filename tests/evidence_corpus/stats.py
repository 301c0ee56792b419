"""The few statistics the scenarios need, in numpy, with statsmodels' summary layout.

statsmodels takes seconds to import; the corpus must build in a few. These fits give statsmodels' numbers and
print its summary tables line for line (tests/test_evidence_corpus_shape.py compares them when statsmodels is there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

DATE, TIME = "Mon, 03 Mar 2025", "10:14:22"


def forg(x: float, prec: int = 3) -> str:
    if abs(x) >= 1e4 or abs(x) < 1e-4:
        return f"{x:.{prec}g}"
    return f"{x:.{prec}f}"


def _g(fmt: str, x: float) -> str:
    return fmt % x


@dataclass
class Fit:
    kind: str                      # "OLS" or "Logit"
    yname: str
    params: pd.Series
    bse: pd.Series
    stat: pd.Series                # t (OLS) or z (Logit)
    pvalues: pd.Series
    ci: pd.DataFrame
    nobs: int
    df_model: int
    info: dict

    @property
    def rsquared(self) -> float:
        return self.info["r2"]

    def summary(self) -> str:
        return _summary(self)


def _skewtest_z(b2: float, n: int) -> float:
    y = b2 * math.sqrt(((n + 1) * (n + 3)) / (6.0 * (n - 2)))
    beta2 = 3.0 * (n**2 + 27 * n - 70) * (n + 1) * (n + 3) / ((n - 2.0) * (n + 5) * (n + 7) * (n + 9))
    w2 = -1 + math.sqrt(2 * (beta2 - 1))
    delta = 1 / math.sqrt(0.5 * math.log(w2))
    alpha = math.sqrt(2.0 / (w2 - 1))
    y = y or 1.0
    return delta * math.log(y / alpha + math.sqrt((y / alpha) ** 2 + 1))


def _kurtosistest_z(b2: float, n: int) -> float:
    e = 3.0 * (n - 1) / (n + 1)
    varb2 = 24.0 * n * (n - 2) * (n - 3) / ((n + 1) * (n + 1.0) * (n + 3) * (n + 5))
    x = (b2 - e) / math.sqrt(varb2)
    sb1 = 6.0 * (n * n - 5 * n + 2) / ((n + 7) * (n + 9))
    sb1 *= math.sqrt((6.0 * (n + 3) * (n + 5)) / (n * (n - 2) * (n - 3)))
    a = 6.0 + 8.0 / sb1 * (2.0 / sb1 + math.sqrt(1 + 4.0 / (sb1**2)))
    term1 = 1 - 2 / (9.0 * a)
    denom = 1 + x * math.sqrt(2 / (a - 4.0))
    term2 = math.copysign(1, denom) * ((1 - 2.0 / a) / abs(denom)) ** (1 / 3.0)
    return (term1 - term2) / math.sqrt(2 / (9.0 * a))


def ols(y: pd.Series, x: pd.DataFrame) -> Fit:
    """statsmodels' OLS(y, add_constant(x)).fit()."""
    xm = np.column_stack([np.ones(len(x)), x.to_numpy(float)])
    names = ["const", *x.columns]
    yv = y.to_numpy(float)
    n, k = xm.shape
    beta, *_ = np.linalg.lstsq(xm, yv, rcond=None)
    resid = yv - xm @ beta
    df_resid = n - k
    ssr = float(resid @ resid)
    centered = float(((yv - yv.mean()) ** 2).sum())
    r2 = 1 - ssr / centered
    cov = ssr / df_resid * np.linalg.inv(xm.T @ xm)
    bse = np.sqrt(np.diag(cov))
    t = beta / bse
    p = 2 * special.stdtr(df_resid, -np.abs(t))
    q = special.stdtrit(df_resid, 0.975)
    fval = (centered - ssr) / (k - 1) / (ssr / df_resid)
    llf = -n / 2 * math.log(2 * math.pi) - n / 2 * math.log(ssr / n) - n / 2
    m = resid - resid.mean()
    skew = float((m**3).mean() / (m**2).mean() ** 1.5)
    kurt = float((m**4).mean() / (m**2).mean() ** 2)
    omni = _skewtest_z(skew, n) ** 2 + _kurtosistest_z(kurt, n) ** 2
    jb = n / 6 * (skew**2 + (kurt - 3) ** 2 / 4)
    eig = np.linalg.eigvalsh(xm.T @ xm)
    info = {"r2": r2, "adj_r2": 1 - (1 - r2) * (n - 1) / df_resid, "f": fval,
            "f_p": float(special.fdtrc(k - 1, df_resid, fval)), "llf": llf, "aic": -2 * llf + 2 * k,
            "bic": -2 * llf + k * math.log(n), "omni": omni, "omni_p": math.exp(-omni / 2),
            "dw": float((np.diff(resid) ** 2).sum() / ssr), "jb": jb, "jb_p": math.exp(-jb / 2), "skew": skew,
            "kurt": kurt, "cond": float(math.sqrt(eig.max() / eig.min()))}
    ser = lambda v: pd.Series(v, index=names)  # noqa: E731
    ci = pd.DataFrame({0: beta - q * bse, 1: beta + q * bse}, index=names)
    return Fit("OLS", str(y.name), ser(beta), ser(bse), ser(t), ser(p), ci, n, k - 1, info)


def logit(y: pd.Series, x: pd.DataFrame) -> Fit:
    """statsmodels' Logit(y, add_constant(x)).fit(disp=0) (Newton's method)."""
    xm = np.column_stack([np.ones(len(x)), x.to_numpy(float)])
    names = ["const", *x.columns]
    yv = y.to_numpy(float)
    n, k = xm.shape
    beta = np.zeros(k)
    for _ in range(50):
        mu = 1 / (1 + np.exp(-(xm @ beta)))
        hess = xm.T @ (xm * (mu * (1 - mu))[:, None])
        step = np.linalg.solve(hess, xm.T @ (yv - mu))
        beta = beta + step
        if np.abs(step).max() < 1e-10:
            break
    mu = 1 / (1 + np.exp(-(xm @ beta)))
    cov = np.linalg.inv(xm.T @ (xm * (mu * (1 - mu))[:, None]))
    bse = np.sqrt(np.diag(cov))
    z = beta / bse
    p = special.erfc(np.abs(z) / math.sqrt(2))
    llf = float((yv * np.log(mu) + (1 - yv) * np.log(1 - mu)).sum())
    pbar = yv.mean()
    llnull = float(n * (pbar * math.log(pbar) + (1 - pbar) * math.log(1 - pbar)))
    llr = 2 * (llf - llnull)
    info = {"r2": 1 - llf / llnull, "llf": llf, "llnull": llnull, "llr_p": float(special.chdtrc(k - 1, llr))}
    ser = lambda v: pd.Series(v, index=names)  # noqa: E731
    ci = pd.DataFrame({0: beta - 1.959963984540054 * bse, 1: beta + 1.959963984540054 * bse}, index=names)
    return Fit("Logit", str(y.name), ser(beta), ser(bse), ser(z), ser(p), ci, n, k - 1, info)


def _two_cols(rows: list[tuple[str, str, str, str]]) -> list[str]:
    out = []
    for ll, lv, rl, rv in rows:
        left = ll + lv.rjust(37 - len(ll)) if ll else " " * 37
        right = rl + rv.rjust(38 - len(rl)) if rl else " " * 38
        out.append(f"{left}   {right}")
    return out


def _summary(f: Fit) -> str:
    i = f.info
    n, dfm = f.nobs, f.df_model
    if f.kind == "OLS":
        rows = [("Dep. Variable:", f.yname, "R-squared:", _g("%#8.3f", i["r2"]).strip()),
                ("Model:", "OLS", "Adj. R-squared:", _g("%#8.3f", i["adj_r2"]).strip()),
                ("Method:", "Least Squares", "F-statistic:", _g("%#8.4g", i["f"]).strip()),
                ("Date:", DATE, "Prob (F-statistic):", _g("%#6.3g", i["f_p"]).strip()),
                ("Time:", TIME, "Log-Likelihood:", _g("%#8.5g", i["llf"]).strip()),
                ("No. Observations:", str(n), "AIC:", _g("%#8.4g", i["aic"]).strip()),
                ("Df Residuals:", str(n - dfm - 1), "BIC:", _g("%#8.4g", i["bic"]).strip()),
                ("Df Model:", str(dfm), "", ""), ("Covariance Type:", "nonrobust", "", "")]
    else:
        rows = [("Dep. Variable:", f.yname, "No. Observations:", str(n)),
                ("Model:", "Logit", "Df Residuals:", str(n - dfm - 1)),
                ("Method:", "MLE", "Df Model:", str(dfm)),
                ("Date:", DATE, "Pseudo R-squ.:", _g("%#6.4g", i["r2"]).strip()),
                ("Time:", TIME, "Log-Likelihood:", _g("%#8.5g", i["llf"]).strip()),
                ("converged:", "True", "LL-Null:", _g("%#8.5g", i["llnull"]).strip()),
                ("Covariance Type:", "nonrobust", "LLR p-value:", _g("%#6.4g", i["llr_p"]).strip())]
    title = f"{f.kind} Regression Results".center(78)
    name_w = max(max(len(s) for s in f.params.index) + 2, 12)
    stat = "t" if f.kind == "OLS" else "z"
    head = " " * name_w + f"{'coef':>9}{'std err':>11}{stat:>11}{f'P>|{stat}|':>11}{'[0.025':>12}{'0.975]':>12}"
    width = len(head)
    body = [f"{name:<{name_w}}{forg(f.params[name], 4):>9}{forg(f.bse[name]):>11}{forg(f.stat[name]):>11}"
            f"{_g('%#6.3f', f.pvalues[name]):>11}{forg(f.ci.loc[name, 0]):>12}{forg(f.ci.loc[name, 1]):>12}"
            for name in f.params.index]
    closing = "=" * (78 if f.kind == "OLS" else width)  # OLS: the diagnostics table's own top rule
    lines = [title, "=" * 78, *_two_cols(rows), "=" * width, head, "-" * width, *body, closing]
    if f.kind == "OLS":
        lines += _two_cols([
            ("Omnibus:", _g("%#6.3f", i["omni"]).strip(), "Durbin-Watson:", _g("%#8.3f", i["dw"]).strip()),
            ("Prob(Omnibus):", _g("%#6.3f", i["omni_p"]).strip(), "Jarque-Bera (JB):", _g("%#8.3f", i["jb"]).strip()),
            ("Skew:", _g("%#6.3f", i["skew"]).strip(), "Prob(JB):", _g("%#8.3g", i["jb_p"]).strip()),
            ("Kurtosis:", _g("%#6.3f", i["kurt"]).strip(), "Cond. No.", _g("%#8.3g", i["cond"]).strip())])
        lines += ["=" * 78, "", "Notes:",
                  "[1] Standard Errors assume that the covariance matrix of the errors is correctly specified."]
        if i["cond"] > 1000:
            lines += [f"[2] The condition number is large, {i['cond']:.3g}. This might indicate that there are",
                      "strong multicollinearity or other numerical problems."]
    return "\n".join(lines)


def welch(a: pd.Series, b: pd.Series) -> tuple[float, float]:
    """scipy.stats.ttest_ind(a, b, equal_var=False): (t, two-sided p)."""
    va, vb = a.var() / len(a), b.var() / len(b)
    t = (a.mean() - b.mean()) / math.sqrt(va + vb)
    dof = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return float(t), float(2 * special.stdtr(dof, -abs(t)))


def prop_ztest(count: np.ndarray, nobs: np.ndarray) -> tuple[float, float]:
    """statsmodels' proportions_ztest(count, nobs) for two samples: (z, two-sided p)."""
    p1, p2 = count / nobs
    pooled = count.sum() / nobs.sum()
    z = (p1 - p2) / math.sqrt(pooled * (1 - pooled) * (1 / nobs[0] + 1 / nobs[1]))
    return float(z), float(special.erfc(abs(z) / math.sqrt(2)))
