"""Every word the offline reader knows, in one place: what it means, and which words it must not leave unread.

The readers (`asks`, `filters`, `values`, `constraints`, `derived`, `slots`) look words up here; none keeps a list
of its own. `DOUBT_WORDS` are the words that change what a question asks (a statistic, a sign, a grouping, an
exclusion): a question that still holds one the readers did not use is not read with confidence (`doubts.py`).
"""

from __future__ import annotations

# -- statistics ----------------------------------------------------------------------------------------------------
ONE_WORD_STATS = {word: stat for stat, words in {
    "mean": "mean average avg averages", "median": "median", "std": "std stdev sd", "var": "variance",
    "min": "minimum min", "max": "maximum max", "sum": "sum total summing summed", "skew": "skewness skew",
    "kurtosis": "kurtosis", "range": "range", "mode": "mode", "percent": "percentage percent proportion share fraction",
    "percentile": "percentile percentiles centile pctile pctiles pctl quartile", "count": "count",
    "nunique": "distinct unique", "missing": "missing null nulls", "outliers": "outlier outliers outlying",
    "corr": "correlation correlations correlate correlated correlates related relationship association associated",
    "normality": "normality", "ttest": "t-test ttest", "chi2": "chi-square chi-squared chi2", "anova": "anova",
    "linreg": "regress regressing regression regressed ols slope intercept r-squared r2 r^2",
    "levene": "levene levene's",
}.items() for word in words.split()}
# Phrases of two or three words ("no. of" is three tokens: no . of).
PHRASE_STATS = {tuple(said.split()): stat for stat, phrases in {
    "std": "standard deviation", "count": "how many, number of, no . of, num . of, nr . of",
    "iqr": "interquartile range", "normality": "normally distributed, normal distribution", "ttest": "t test",
    "linreg": "least squares", "chi2": "chi square, chi squared", "mode": "most common, most often, most frequent",
}.items() for said in phrases.split(", ")}
NUMERIC_STATS = frozenset({"mean", "median", "std", "var", "sum", "skew", "kurtosis", "range", "iqr", "percentile"})
PER_GROUP_STATS = frozenset({"mean", "median", "sum", "min", "max", "std", "var", "count", "percentile"})
NORMALITY_TESTS = frozenset({"shapiro", "dagostino", "ks"})
CORRELATIONS = frozenset({"pearson", "spearman", "kendall"})
GROUP_TESTS = frozenset({"ttest", "mannwhitney", "anova", "levene"})      # tests across the groups of a column
# Statistics read with their own rule (two columns, a test, a rule), not as "stat of one column".
SPECIAL = frozenset({"corr", "normality", "outliers", "ttest", "linreg", "chi2", "anova", "levene"})
# A regression on several columns ("y on a, b and c together"), which no reader computes.
MANY_REGRESSORS = frozenset("multiple multivariate together jointly covariates regressors controlling".split())
TESTS = NORMALITY_TESTS | CORRELATIONS | GROUP_TESTS | {"chi2", "paired", "linreg"}
EXTREMES = {**dict.fromkeys("""highest largest biggest greatest most maximum max top best higher larger bigger greater
    more warmest peak heaviest longest tallest widest hottest""".split(), "max"), **dict.fromkeys("""lowest smallest
    least fewest minimum min worst bottom lower smaller fewer less narrowest lightest coldest shortest""".split(),
    "min")}
# Without a "which X", "the highest salary" is the maximum of salary.
SUPERLATIVES = {word: EXTREMES[word] for word in ("highest", "largest", "biggest", "greatest", "lowest", "smallest")}
GROUP_PHRASES = (("groupby",), ("group", "by"), ("for", "each"), ("for", "every"), ("in", "each"), ("within", "each"),
                 ("grouped", "by"), ("broken", "down", "by"), ("split", "by"), ("per",), ("by",), ("across",),
                 ("each",))
WITH_WORDS = frozenset({"with", "has", "having", "had", "shows", "showing"})
# Amounts summed (not averaged) when "which X has the highest <amount>" names no statistic.
ADDITIVE = ("revenue", "sales", "amount", "quantity", "units", "profit", "cost", "spend", "orders", "volume",
            "income", "population", "gdp", "qty")
# Columns of period names ("Jan", "Sat"): "how many months ..." counts the months of a series (rows), not names.
CALENDAR_UNITS = frozenset("day days weekday week month months quarter".split())
RATE_WORDS = ("per", "rate", "ratio", "avg", "mean", "pct", "share")
LABELS = {
    "mean": "mean", "median": "median", "sum": "total", "min": "minimum", "max": "maximum",
    "std": "standard deviation", "var": "variance", "count": "number of rows", "nunique": "number of distinct values",
    "missing": "number of missing values", "skew": "skewness", "kurtosis": "excess kurtosis",
    "percent": "percentage", "percent_rows": "percentage of rows meeting the conditions", "range": "range",
    "iqr": "interquartile range", "mode": "most common value",
    "pearson": "Pearson correlation", "spearman": "Spearman correlation", "kendall": "Kendall correlation",
    "shapiro": "Shapiro-Wilk test", "dagostino": "D'Agostino K-squared test", "ks": "Kolmogorov-Smirnov test",
    "outliers_iqr": "IQR outlier count", "outliers_z": "z-score outlier count", "ttest": "t-test",
    "mannwhitney": "Mann-Whitney test", "paired": "paired t-test", "linreg": "least-squares line",
    "chi2": "chi-square test of independence", "anova": "one-way ANOVA", "levene": "Levene test",
}

# -- how the answer is wanted: methods, rounding, rules ------------------------------------------------------------
METHOD_WORDS = {word: method for method, words in {
    "spearman": "spearman spearman's rho", "kendall": "kendall kendall's tau tau-b", "pearson": "pearson pearson's",
    "shapiro": "shapiro shapiro-wilk", "dagostino": "d'agostino d'agostino's dagostino k-squared normaltest",
    "ks": "kolmogorov kolmogorov-smirnov ks k-s", "welch": "welch welch's", "student": "student's pooled",
    "mannwhitney": "mann-whitney mann wilcoxon", "paired": "paired",
}.items() for word in words.split()}
ORDINALS = frozenset("first second third fourth fifth 1st 2nd 3rd 4th 5th".split())
NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
DECIMAL_WORDS = frozenset({"decimal", "decimals", "dp", "d.p"})
ROUND_WORDS = frozenset({"round", "rounded", "rounding", "rounds"})
Z_WORDS = frozenset({"z-score", "z-scores", "zscore", "zscores"})
BEYOND = frozenset({"more", "beyond", "outside", "over", "above", "exceed", "exceeds", "exceeding"})
SD_TAIL = frozenset("away from the its their mean average ( ) sample sd std standard deviation".split())
SD_SIDES = {"above": "upper", "over": "upper", "higher": "upper", "below": "lower", "under": "lower", "lower": "lower"}
SD_UNITS = frozenset({"sd", "sds", "sigma", "sigmas", "σ"})     # "2 SD from the mean": a standard deviation as a unit
ALPHA_WORDS = frozenset({"alpha", "α", "significance"})
# Words of a named rule that are part of it, not asks of their own ("1.5 IQR rule").
RULE_FILLERS = frozenset({"x", "×", "*", "times", "the", "of"})
RULE_LEADS = frozenset({"more", "than", "beyond", "outside", "over", "above", "by", "of"})

# -- rows: comparisons, values, missing values, periods ------------------------------------------------------------
COMPARATORS: tuple[tuple[tuple[str, ...], str], ...] = tuple(sorted((
    (tuple(said.split()), op) for op, phrases in {
        ">=": "greater than or equal to, more than or equal to, at least, no less than, not less than, >=",
        "<=": "less than or equal to, at most, no more than, up to, <=",
        ">": "greater than, more than, larger than, higher than, bigger than, above, over, exceeding, exceeds, exceed, "
             ">, older than",
        "<": "less than, fewer than, lower than, smaller than, below, under, <, younger than",
        "==": "equal to, equals, =, ==, exactly",
        "!=": "!=, not equal to",
    }.items() for said in phrases.split(", ")), key=lambda item: -len(item[0])))
OR_MORE = {(joiner, word): op for joiner in ("or", "and") for words, op in (
    (("more", "above", "over", "older", "greater", "higher", "up"), ">="),
    (("less", "fewer", "below", "under", "younger", "lower"), "<=")) for word in words}     # "aged 65 and over"
SIGNS = {"negative": ("<", 0.0), "positive": (">", 0.0), "nonzero": ("!=", 0.0), "non-zero": ("!=", 0.0)}
DROP_WORDS = frozenset("ignore ignoring ignored drop dropping dropped exclude excluding excluded remove removing "
                       "removed skip skipping skipped omit omitting omitted without discard discarding discarded "
                       "leave aside".split())
# Words before a value the profile does not list ("customers from Norway", "between Atlantic Refining and ...").
UNSEEN_LEADS = frozenset("from in at for between and versus vs among within".split())
MISSING_WORDS = frozenset("missing null nulls nan na empty blank unrecorded unreported".split())
RECORDED = frozenset("recorded record given listed reported entered known".split())     # "no sex recorded": missing
# Words before a value that leave its rows out ("other than Oslo", "apart from the Oslo office", "excl. Oslo").
EXCLUSIONS = tuple(tuple(said.split("_")) for said in
                   """other_than apart_from aside_from except_for excl_. not non excluding except without excl
                   leaving_out leave_out leaving_aside setting_aside set_aside putting_aside not_counting
                   not_including""".split())
# Said after a value: "with setosa excluded", "GM aside", "setosa left out"; a bare "out" only after a LEAVING word.
EXCLUSIONS_AFTER = tuple(tuple(said.split("_")) for said in "excluded aside left_out out".split())
LEAVING = frozenset("leaving leave setting set putting put".split())
LINK_WORDS = frozenset("is are was were of the a an has have had value values strictly".split())
CLAUSE_WORDS = frozenset("and or in at for with who which that on during".split())
GENERIC_VALUES = frozenset("""yes no true false other others none unknown high low medium mid new old all any total na
    n/a missing null good bad average normal open closed active inactive""".split())
OUTLIER_WORDS = frozenset({"outlier", "outliers"})
PERIOD_WORDS = {"in": "==", "during": "==", "since": ">=", "after": ">", "before": "<", "until": "<=", "year": "==",
                "the": "=="}
# "the sixties": the 1960s, or ages, or temperatures; read only with the years it stands for ("i.e. 1960-69").
DECADES = {word: 1900 + 10 * tens for tens, word in enumerate(
    "tens twenties thirties forties fifties sixties seventies eighties nineties".split(), start=1)}
OPEN_ENDS = frozenset({"later", "after", "onward", "onwards", "beyond"})
MONTHS = {name: index for index, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
    ("december", "dec")), start=1) for name in names}
ROW_NOUNS = frozenset("row rows record records entry entries observation observations case cases line".split())

# -- derived columns -----------------------------------------------------------------------------------------------
DEFINERS = (("computed", "as"), ("calculated", "as"), ("defined", "as"), ("given", "by"), ("measured", "as"))
SYMBOL_OPS = {"+": "+", "-": "-", "*": "*", "/": "/", "**": "**", "%": "%", "×": "*"}
WORD_OPS = {"x": "*", "times": "*", "plus": "+", "minus": "-"}
TWO_WORD_OPS = {("divided", "by"): "/", ("multiplied", "by"): "*"}
NAME_STOP = frozenset("""what which who how is are was were the a an has have had highest lowest largest smallest
    most least compute calculate create define let where with and for of in on mean average median total sum each
    new column variable field""".split())

# -- answer slots: which output of an ask a `@name[...]` wants -----------------------------------------------------
# A slot names its statistic with a question's word ("@mean_salary"), or with a short one ("@kurt", "@r", "@iqr").
SLOT_STATS = {word: ONE_WORD_STATS[word] for word in """mean avg average std sd stdev variance median min minimum max
    maximum sum total count skew skewness kurtosis correlation outlier outliers missing distinct unique percentile range
    share percent percentage mode""".split()} | {
    "deviation": "std", "var": "var", "kurt": "kurtosis", "r": "corr", "rho": "corr", "tau": "corr", "corr": "corr",
    "iqr": "iqr", "rate": "percent"}
SLOT_PARTS = {word: part for part, words in {
    "p_value": "pvalue", "statistic": "statistic stat chi2 t f w", "normal": "normal normality",
    "significant": "significant significance reject", "slope": "slope", "intercept": "intercept",
    "r2": "r2 rsquared squared", "dof": "dof df"}.items() for word in words.split()}
# A yes/no answer slot ("@independent[yes/no]", "@reject[yes/no] (yes if p < 0.05)"): what "yes" says of a test.
# "significant": yes when p < alpha; "holds": yes when the null stands (p >= alpha); a negation flips it.
VERDICT_WORDS = {**dict.fromkeys("""significant significance significantly reject rejected rejects differ differs
    different difference dependent dependence associated association related correlated""".split(), "significant"),
    **dict.fromkeys("""independent independence normal normality normally equal same homogeneous consistent
    similar""".split(), "holds")}
VERDICT_SIGNS = {**dict.fromkeys("< <= below less smaller under".split(), "significant"),
                 **dict.fromkeys("> >= above greater exceeds".split(), "holds")}
NEGATIONS = frozenset({"not", "no", "fail", "fails", "failed", "cannot", "isn't", "doesn't", "non", "without"})
FAMILIES = {"pearson": "corr", "spearman": "corr", "kendall": "corr", "outliers_iqr": "outliers",
            "outliers_z": "outliers"}
ONE_COLUMN_STATS = frozenset({"mean", "median", "std", "var", "min", "max", "sum", "skew", "kurtosis", "range", "iqr",
                              "missing", "nunique"})

# -- columns -------------------------------------------------------------------------------------------------------
SKIP_IN_NAMES = frozenset({"of", "the", "a", "an"})          # may sit inside a column's words ("years of experience")
# Words that name no column on their own, even when a column's name contains them ("co2_per_capita").
NOT_ALONE = frozenset("""a an the of per by for in on at to and or is are was were what which how many much does do
    did with vs versus each every all any value values column columns data dataset row rows number""".split())
DISTINCT_WORDS = frozenset("distinct unique different separate".split())
NOT_NOUNS = DISTINCT_WORDS | frozenset("of the a an total times".split())

# -- open tasks ----------------------------------------------------------------------------------------------------
DRIVER_WORDS = frozenset("""drives drive driving drivers driver factors factor explains explain explained affects
    affect determines determine influences influence impact relate""".split())
OPEN_WORDS = frozenset("""explore exploratory eda analyse analyze analysis insights insight overview understand
    investigate summarise summarize summary predict predicts predicting forecast forecasting""".split()) | (
    DRIVER_WORDS - {"explained", "relate"})
GOAL_WORDS = {
    "relationships": frozenset("why relationship correlation correlate associated association relate related".split()),
    "group_comparisons": frozenset("which compare comparison differ difference segment segments versus vs".split()),
    "trends": frozenset("trend trends time growth grow season seasonal monthly yearly weekly evolve".split()),
    "distributions": frozenset("distribution outlier outliers skew spread anomaly anomalies histogram".split()),
    "predictive": frozenset("predict forecast model classify regression regress".split()),
}
GOALS = ("audit", "descriptive", "relationships", "group_comparisons", "trends", "distributions", "predictive")
# Column names that usually hold the quantity an analyst cares about, most telling first.
INTERESTING = ("revenue", "sales", "amount", "price", "total", "profit", "value", "score", "income", "cost", "spend",
               "salary", "units", "qty")
ESTIMATE_WORDS = frozenset("regression regress model fit fitted predict forecast coefficient r-squared r2 estimate "
                           "estimated driver drivers importance slope intercept".split())

# -- confidence ----------------------------------------------------------------------------------------------------
# Words that change what is asked. Left unread, the question was not understood: a statistic the readers do not
# know, a sign, an exclusion, a comparison of periods, a ranking.
DOUBT_WORDS = frozenset(set(ONE_WORD_STATS) | set(EXTREMES) | set(SIGNS) | set(METHOD_WORDS) | set(DECADES) | set("""
    which ratio difference differences rise rose increase increased decrease decreased change changed growth grew
    trend cumulative rank ranked ranking list except excepted excl apart excepting exclude excluded excludes
    aside means medians totals sums variances
    excluding non without complete duplicate duplicates cv times kilograms kilogram kg kgs pounds lbs
    twice half double weighted rolling moving lag lagged first last earliest latest top bottom each every per
    versus vs compared against fisher bartlett kruskal tukey bonferroni logistic odds probability confidence
    interval forecast predict predicted residual residuals standardise standardize standardised standardized
    normalise normalize log logs ln logarithm sqrt minus one-sided one-tailed adjusted error errors sem geometric
    harmonic trimmed winsorized winsorised absolute decile deciles quintile quintiles origin fill filled
    impute imputed imputation replace replaced suppress suppressed suppressing""".split()))
# Transformations of a column ("log(income)"): a reader that names the column does not apply them.
TRANSFORMS = frozenset("log logs ln logarithm sqrt square squared exp reciprocal inverse".split())
# Phrases that ask for something the readers do not compute, even when each word of them is harmless.
DOUBT_PHRASES = (("coefficient", "of", "variation"), ("divided", "by"), ("per", "cent", "change"))
# Words said with a test, about it ("a significant difference", "rank correlation"): read with the test.
TEST_TALK = frozenset("""significant significantly significance difference differences differ differs different
    independent independence equal equality reject rejected normal normally distributed rank against versus vs
    yates continuity correction tukey tukey's fences two-sided two-tailed associated association related""".split())
# The results of a per-group statistic, said in the plural ("the median of those firm means"): `nested.py`.
GROUP_RESULTS = {"means": "mean", "averages": "mean", "medians": "median", "totals": "sum", "sums": "sum",
                 "maxima": "max", "minima": "min", "maximums": "max", "minimums": "min"}
DIFFERENCES = frozenset("difference differences differ differs different".split())   # of a test, or derived
# Words of a z-score's own definition ("standardise x: z = (x - mean) / std"): read with the z rule.
Z_MARKS = frozenset("z standardise standardize standardised standardized".split())   # a sentence that speaks of z
Z_TALK = frozenset("""standardise standardize standardised standardized z mean std sd deviation standard""".split())
# Words that repeat the rounding for every answer ("each rounded to 2 decimals", "both to two decimals").
EACH_WORDS = frozenset({"each", "both", "all", "respectively"})
# Words that point back at rows a clause chose, after "of"/"among" ("of those", "among them"); also "their mean".
BACK_REFERENCES = frozenset("them those these".split())
# Words that make a sentence a question or an order to compute something.
ASKING_WORDS = frozenset("what which how is are does do compute calculate find give report count test ?".split())
# Words that say nothing about what is asked, when comparing an ask with an answer or a criterion.
STOP_WORDS = frozenset("""a an the of in on at for to and or with by over between from during did does do is are was
    were be been being how what which when where why who whose this that these those it its their there has have
    had per each every all any some than as into across within vs versus data dataset column columns value values
    me us we you your our can could would should will may might please about also both either among after before
    since until through more most less least much many very just only not no yes whether then so such give tell
    show find compute calculate report state list describe determine estimate identify answer rounded round
    decimals decimal places using use given based file files table csv first next finally load read open look
    row rows number answer""".split())
# What a stage someone else planned is for, by its words (the first that matches).
STAGE_GOALS: tuple[tuple[str, frozenset[str]], ...] = (
    ("audit", frozenset("audit quality missing duplicate clean".split())),
    ("trend", frozenset("trend time monthly series season seasonal".split())),
    ("compare", frozenset("compare comparison differ difference anova t-test across group".split())),
    ("relationships", frozenset("correlation correlate relationship associate association".split())),
    ("distributions", frozenset("distribution outlier histogram skew".split())),
    ("classification", frozenset("classify classification classifier".split())),
    ("regression", frozenset("predict regression regress model forecast".split())),
    ("descriptive", frozenset("describe summary overview descriptive".split())),
)
# Words that make a result sentence a finding rather than an inventory (the report's headline of a result).
TELLING_WORDS = frozenset("""strong strongest strongly significant significantly highest lowest largest smallest trend
    differ different difference outliers skew""".split())
