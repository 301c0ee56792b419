"""Small statistics helpers the answer functions share (pandas, scipy and statsmodels underneath)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats


def r(value: float, digits: int) -> float:
    """`value` rounded to `digits` decimals (as the question asks)."""
    return round(float(value), digits)


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def iqr_outliers(values: pd.Series) -> int:
    """Values strictly outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR], quartiles by linear interpolation, NaN dropped."""
    values = values.dropna()
    q1, q3 = values.quantile(0.25), values.quantile(0.75)
    low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    assert not ((values == low) | (values == high)).any(), "a value sits on a fence: the count is ambiguous"
    return int(((values < low) | (values > high)).sum())


def z_outliers(values: pd.Series, threshold: float = 3.0, ddof: int | None = None) -> int:
    """Values with |z| > threshold (NaN dropped). Without `ddof`, asserts the count is the same with the population
    and the sample standard deviation (else the question must say which, and pass it)."""
    values = values.dropna()
    counts = {int((((values - values.mean()) / values.std(ddof=k)).abs() > threshold).sum())
              for k in ((0, 1) if ddof is None else (ddof,))}
    assert len(counts) == 1, "the z-score count depends on ddof: say which"
    return counts.pop()


def ols(y: pd.Series, x: pd.Series) -> dict[str, float]:
    """Slope, intercept and R-squared of y on x with an intercept (rows with a missing value dropped)."""
    frame = pd.concat([y, x], axis=1).dropna()
    fit = sm.OLS(frame.iloc[:, 0], sm.add_constant(frame.iloc[:, 1])).fit()
    return {"slope": fit.params.iloc[1], "intercept": fit.params.iloc[0], "r2": fit.rsquared,
            "slope_p": fit.pvalues.iloc[1]}


def corr(a: pd.Series, b: pd.Series, method: str) -> float:
    """Correlation of `method` over the rows where both are present."""
    return float(a.corr(b, method=method))


def ttest(a: pd.Series, b: pd.Series, equal_var: bool) -> tuple[float, float]:
    """Two-sample t-test (Welch's when `equal_var` is false), missing values dropped: statistic and p-value."""
    result = stats.ttest_ind(a.dropna(), b.dropna(), equal_var=equal_var)
    return float(result.statistic), float(result.pvalue)


def anova(frame: pd.DataFrame, value: str, group: str) -> tuple[float, float]:
    groups = [g[value].dropna() for _, g in frame.groupby(group)]
    result = stats.f_oneway(*groups)
    return float(result.statistic), float(result.pvalue)


def chi2(frame: pd.DataFrame, a: str, b: str, correction: bool = True) -> tuple[float, float, int]:
    """Chi-square test of independence of two columns: statistic, p-value and degrees of freedom."""
    table = pd.crosstab(frame[a], frame[b])
    result = stats.chi2_contingency(table, correction=correction)
    return float(result.statistic), float(result.pvalue), int(result.dof)


def shapiro(values: pd.Series) -> tuple[float, float]:
    result = stats.shapiro(values.dropna())
    return float(result.statistic), float(result.pvalue)


def unique_mode(values: pd.Series) -> float | str:
    modes = values.mode()
    assert len(modes) == 1, "the mode is not unique"
    value = modes.iloc[0]
    return value if isinstance(value, str) else float(value)


def unique_arg(series: pd.Series, largest: bool = True) -> str:
    """The index label of the largest (or smallest) value, asserting no tie; as a string."""
    target = series.max() if largest else series.min()
    hits = series[np.isclose(series, target, rtol=0, atol=1e-12)]
    assert len(hits) == 1, f"tie for the {'largest' if largest else 'smallest'} value: {list(hits.index)}"
    label = hits.index[0]
    return str(int(label)) if isinstance(label, (int, np.integer, float, np.floating)) else str(label)
