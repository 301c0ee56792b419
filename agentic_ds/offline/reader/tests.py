"""The asks read with a rule of their own: correlations, normality tests, outlier rules, group tests, regressions.

    "Pearson correlation between petal_length and petal_width"   -> pearson(petal_length, petal_width)
    "Shapiro-Wilk test on 'mean smoothness'"                      -> shapiro(mean smoothness)
    "outliers in foodexp using the 1.5 IQR rule"                  -> outliers_iqr(foodexp, factor 1.5)
    "Welch's t-test of progression between the sexes"             -> ttest(progression by sex)
    "paired t-test of MAR against APR"                            -> paired(MAR, APR)
    "regress petal_width on petal_length", "y = a + b * x"        -> linreg(y on x)
    "chi-square test of independence between smoker and day"      -> chi2(smoker, day)
    "one-way ANOVA of bill_length_mm across species", "Levene"    -> anova / levene(column by group)

Each takes the columns it needs from the mentions of its sentence (then of the question) and records the tokens
it read; one that cannot find them gives no ask, and its words stay unread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentic_ds.offline.reader.asks import MAX_HITS, Ask, AskReader
from agentic_ds.offline.reader.hits import Hit
from agentic_ds.offline.reader.vocabulary import (
    CORRELATIONS,
    DIFFERENCES,
    MANY_REGRESSORS,
    METHOD_WORDS,
    NORMALITY_TESTS,
    TEST_TALK,
    TRANSFORMS,
    Z_MARKS,
    Z_TALK,
    Z_WORDS,
)

MAX_TEST_GROUPS = 20       # a test compares a few groups; a column with more values (an id) is not its grouping
_REGRESSION_STARTS = frozenset({"regress", "regressing", "regressed", "regression", "ols"})
_EFFECT = frozenset({"effect", "effects", "impact", "influence"})
_FIT_LEADS = frozenset({",", ":", ";", "(", ".", "fit", "fitting", "fitted", "model"})  # what may come before y on x
_METHOD_ASKS = {**dict.fromkeys(NORMALITY_TESTS, "normality"), **dict.fromkeys(CORRELATIONS, "corr"),
                **dict.fromkeys(("welch", "student", "mannwhitney", "paired"), "ttest")}


def method_hits(reader: AskReader) -> list[Hit]:
    """A named test ("Shapiro-Wilk", "KS", "Welch", "paired") is itself an ask, even with no other word for it."""
    return [Hit(_METHOD_ASKS[method], i, 1) for i in sorted(reader.constraints.positions)[:MAX_HITS]
            if (method := METHOD_WORDS.get(reader.tokens[i].low, "")) in _METHOD_ASKS]


def special_asks(reader: AskReader, sentence: int, hits: list[Hit]) -> list[Ask]:
    """The special asks of one sentence (one per kind), and the outlier count a z-score rule implies."""
    kinds: dict[str, Hit] = {}
    for hit in hits:
        if hit.stat in _READERS:
            kinds.setdefault(hit.stat, hit)
    if "linreg" in kinds:
        kinds.pop("corr", None)          # "R-squared", "correlation" inside a regression are its parts
    found: list[Ask] = []
    for stat, hit in kinds.items():
        ask = _READERS[stat](reader, hit, sentence)
        if ask is not None and ask.column:
            reader.used |= {p for other in hits if other.stat == stat for p in range(other.position,
                                                                                     other.position + other.width)}
            found.append(ask)
    if reader.constraints.z_threshold is not None and not any(a.stat.startswith("outliers") for a in found):
        counting = [h for h in hits if h.stat == "count"]
        if counting:
            reader.use(counting[0].position, counting[0].position + counting[0].width)
            found.append(_outliers(reader, counting[0], sentence))
    if found:
        _use_test_talk(reader, hits, found)
    return found


def _use_test_talk(reader: AskReader, hits: list[Hit], found: list[Ask]) -> None:
    """The words a test is asked with ("a significant difference", "is the variance equal", "centred on the
    median") are the test's, not asks of their own. An outlier count tests no difference: "the month-to-month
    differences" of its column are a quantity it would have to derive."""
    talk = TEST_TALK if any(not a.stat.startswith("outliers") for a in found) else TEST_TALK - DIFFERENCES
    reader.used |= {i for i, token in enumerate(reader.tokens) if token.low in talk}
    stats = {a.stat for a in found}
    for hit in hits:
        outlier_words = hit.stat == "count" or hit.stat == "iqr" and "outliers_iqr" in stats
        if outlier_words and stats & {"outliers_iqr", "outliers_z"}:
            reader.use(hit.position, hit.position + hit.width)     # "count the outliers", "the IQR rule"
    if "outliers_z" in stats:
        use_z_definition(reader)
    if "ks" in stats:               # "against a normal with the sample mean and standard deviation": its parameters
        reader.used |= {p for h in hits if h.stat in ("mean", "std") for p in range(h.position, h.position + h.width)}
    levene = next((a for a in found if a.stat == "levene"), None)
    for hit in hits if levene is not None else []:
        before = {t.low[:4] for t in reader.tokens[max(0, hit.position - 3): hit.position]}
        if hit.stat == "var":
            reader.use(hit.position, hit.position + hit.width)
        elif hit.stat in ("mean", "median") and before & {"cent"} and levene is not None:
            levene.params["center"] = hit.stat
            reader.use(hit.position - 3, hit.position + hit.width)


def use_z_definition(reader: AskReader) -> None:
    """"Standardise income (z = (x - mean) / std)": the definition of the z-score the rule uses, in the sentences
    that speak of z or state the rule (another sentence's "mean" is an ask of its own)."""
    said = {reader.sentences[i] for i, t in enumerate(reader.tokens) if t.low in Z_WORDS or t.low in Z_MARKS}
    if reader.constraints.z_at >= 0:                # "more than three SD from the malignant mean"
        said.add(reader.sentences[reader.constraints.z_at])
    depth = 0
    for i, token in enumerate(reader.tokens):
        depth += token.text == "("
        defining = token.low in Z_TALK or depth and token.low in ("x", "=", "-", "/", "(", ")")
        if defining and reader.sentences[i] in said:
            reader.use(i, i + 1)
        depth -= token.text == ")" and depth > 0


def _pair(reader: AskReader, hit: Hit, sentence: int, stat: str, params: dict[str, Any],
          suits: Callable[[str], bool] | None = None) -> Ask | None:
    """An ask of two columns named for it (numeric unless `suits` says otherwise); None when fewer are named."""
    columns = reader.columns_for(hit.position, sentence, suits)
    if len(columns) < 2:
        return None
    return Ask(stat, columns[0], columns[1], params=params, position=hit.position, sentence=sentence)


def _corr(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    c = reader.constraints
    return _pair(reader, hit, sentence, c.method("spearman", "kendall", "pearson") or "pearson", {"alpha": c.alpha})


def _normality(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    c = reader.constraints
    test = c.method(*NORMALITY_TESTS) or "shapiro"
    column = reader.column_for(hit.position, sentence, reader.numeric)
    return Ask(test, column, params={"alpha": c.alpha}, position=hit.position, sentence=sentence) if column else None


def _outliers(reader: AskReader, hit: Hit, sentence: int) -> Ask:
    c = reader.constraints
    column = reader.column_for(hit.position, sentence, reader.numeric)
    if c.z_threshold is not None and c.iqr_factor is None:
        params: dict[str, Any] = {"threshold": c.z_threshold, **({"side": c.z_side} if c.z_side else {}),
                                  **({"ddof": c.ddof} if c.ddof is not None else {})}
        return Ask("outliers_z", column, params=params, position=hit.position, sentence=sentence)
    return Ask("outliers_iqr", column, params={"factor": c.iqr_factor or 1.5}, position=hit.position,
               sentence=sentence)


def _by_group(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    """A test of a numeric column across the groups of another: one-way ANOVA, Levene's, a t-test (Welch unless
    Student's is named) or Mann-Whitney; or a paired t-test of two columns."""
    c = reader.constraints
    if hit.stat == "ttest" and c.method("paired"):
        return _pair(reader, hit, sentence, "paired", {"alpha": c.alpha})
    column, group = _column_and_group(reader, hit, sentence)
    if not column:
        return None
    student = "student" if c.method("student") and not c.method("welch") else None
    params = {"method": student, "alpha": c.alpha} if hit.stat == "ttest" else {"alpha": c.alpha}
    test = "mannwhitney" if hit.stat == "ttest" and c.method("mannwhitney") else hit.stat
    return Ask(test, column, group=group, params=params, position=hit.position, sentence=sentence)


def _column_and_group(reader: AskReader, hit: Hit, sentence: int) -> tuple[str, str]:
    """(measured column, grouping column) of a test across groups: the measure is a numeric column with many
    values, the group one with few; the group is "" when the groups are named by their values (the filters hold
    them, and `doubts.named_groups` makes them the test's groups)."""
    measured = lambda n: reader.numeric(n) and not reader.groupable(n)  # noqa: E731
    column = reader.column_for(hit.position, sentence, measured) or reader.column_for(hit.position, sentence,
                                                                                      reader.numeric)
    few = lambda n: (reader.levels.get(n) or 0) <= MAX_TEST_GROUPS  # noqa: E731 (an id groups nothing)
    fits = lambda n: reader.groupable(n) and n != column and few(n)  # noqa: E731
    return column, reader.column_for(hit.position, sentence, fits) if column else ""


def _chi2(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    c = reader.constraints
    params = {"alpha": c.alpha, "correction": False if c.method("no_correction") else None}
    return _pair(reader, hit, sentence, "chi2", params, reader.groupable)


def _linreg(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    """The least-squares line of y on x: "regress y on x", "regression of y on x", "y = a + b * x"."""
    pair = _y_on_x(reader) or _equation(reader)
    if pair is None or any(t.low in MANY_REGRESSORS for t in reader.tokens):    # only a line of y on one x
        return None
    y, x, start, end = pair
    # "regress log(y) on x": the line of y, not of its log, is all it computes
    reader.used |= {i for i in range(start, end) if reader.tokens[i].low not in TRANSFORMS}
    return Ask("linreg", y, x, position=hit.position, sentence=sentence)


def _y_on_x(reader: AskReader) -> tuple[str, str, int, int] | None:
    tokens = reader.tokens
    for i, token in enumerate(tokens):
        on = next((j for j in range(i + 1, min(len(tokens), i + 12)) if tokens[j].low == "on"), None)
        if token.low not in _REGRESSION_STARTS or on is None:
            continue
        y = next((m for m in reader.mentions if i < m.start < on and reader.numeric(m.column)), None)
        x = next((m for m in reader.mentions if on < m.start <= on + 10 and reader.numeric(m.column)
                  and (y is None or m.column != y.column)), None)
        if y is not None and x is not None and _one_regressor(reader, x.end) and not (
                _EFFECT & {t.low for t in tokens[i:on]}):      # "regression of the effect of x on y": which is y?
            return y.column, x.column, i, x.end
    for on, token in enumerate(tokens):      # "salary on age, OLS slope": the columns either side of "on" ...
        y, x = reader.ending.get(on), reader.starting.get(on + 1)
        if token.low == "on" and y and x and reader.numeric(y.column) and reader.numeric(x.column) and y != x and (
                not y.start or tokens[y.start - 1].low in _FIT_LEADS):    # ... not "the effect of x on y"
            return (y.column, x.column, y.start, x.end) if _one_regressor(reader, x.end, strict=True) else None
    return None


def _one_regressor(reader: AskReader, end: int, strict: bool = False) -> bool:
    """Nothing in the clause after x adds a regressor: "y on a + b", "y on a, b and c" (a list, whatever its
    words) and "y on a and b" (b a column) are regressions on several columns; "regress y on a and give the slope"
    is not. `strict`: any "and" in the clause is taken for another regressor (a bare "y on x" has less to go by)."""
    after = [t.low for t in reader.tokens[end: end + 8]] + ["."]
    clause = after[: next(i for i, w in enumerate(after) if w in (".", ";", "(", ":") or i and w == ",")]
    ands = [end + i for i, w in enumerate(clause) if w == "and"]
    return not ({"+", "&"} & set(clause) or ands and (strict or clause[0] == ",") or any(
        reader.starting.get(j + 1) or reader.starting.get(j + 2) for j in ands))


def _equation(reader: AskReader) -> tuple[str, str, int, int] | None:
    """"foodexp = a + b * income": the column before `=`, the one after the `*`."""
    tokens = reader.tokens
    ending = {m.end: m for m in reader.mentions if reader.numeric(m.column)}
    for i, token in enumerate(tokens):
        if token.text != "=" or i not in ending:
            continue
        y = ending[i]
        star = next((j for j in range(i + 1, min(len(tokens), i + 7)) if tokens[j].text in ("*", "×", "x")), None)
        x = reader.starting.get(star + 1) if star is not None else None
        if x is not None and reader.numeric(x.column) and x.column != y.column:
            return y.column, x.column, y.start, x.end
    return None


_READERS = {"corr": _corr, "normality": _normality, "outliers": _outliers, "ttest": _by_group, "linreg": _linreg,
            "chi2": _chi2, "anova": _by_group, "levene": _by_group}
