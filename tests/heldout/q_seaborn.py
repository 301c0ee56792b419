"""Questions on the three generated tables: restaurant tips, penguin measurements and monthly airline passengers.

All three have gaps (tips: 6 tips and 4 sexes missing; penguins: 2 rows with no measurements, 11 sexes missing;
flights: 3 months without a passenger count); a question says how to treat them where it matters.
"""

from __future__ import annotations

from tests.heldout.registry import Data, q
from tests.heldout.stats import (
    anova,
    chi2,
    corr,
    iqr_outliers,
    ols,
    r,
    shapiro,
    ttest,
    unique_arg,
    unique_mode,
    yes_no,
    z_outliers,
)

T, P, FL = "tips", "penguins", "flights"


@q("stat", T, "What is the average tip in tips.csv, ignoring rows where the tip is missing? Two decimals.")
def tips_mean_tip(d: Data) -> dict:
    return {"mean": r(d[T].tip.mean(), 2)}


@q("stat", T, "How many rows of tips.csv have no recorded tip? Answer as @missing_tips[value].")
def tips_missing_tip(d: Data) -> dict:
    return {"missing_tips": int(d[T].tip.isna().sum())}


@q("stat", T, "On how many distinct dates did the restaurant record bills?")
def tips_distinct_dates(d: Data) -> dict:
    return {"dates": d[T].date.nunique()}


@q("stat", T, "What is the most common party size? Answer as @mode_size[value].")
def tips_mode_size(d: Data) -> dict:
    return {"mode_size": unique_mode(d[T]["size"])}


@q("argmax", T, """Which day of the week has the highest average total bill? Name it as it is written in the day
    column.""", checker="exact")
def tips_day_max_bill(d: Data) -> dict:
    return {"day": unique_arg(d[T].groupby("day").total_bill.mean())}


@q("group", T, """Compare the average tip at lunch and at dinner (missing tips excluded): report @tip_lunch[value]
    and @tip_dinner[value], two decimals.""")
def tips_tip_by_time(d: Data) -> dict:
    means = d[T].groupby("time").tip.mean()
    return {"tip_lunch": r(means["Lunch"], 2), "tip_dinner": r(means["Dinner"], 2)}


@q("group", T, "How many parties were served on each day? Give the counts for Thur, Fri, Sat and Sun.")
def tips_count_by_day(d: Data) -> dict:
    counts = d[T].day.value_counts()
    return {day: int(counts[day]) for day in ("Thur", "Fri", "Sat", "Sun")}


@q("test", T, """Is smoking status (smoker) independent of the day of the week (day)? Run a chi-square test of
    independence and give @chi2[value] (3 decimals), @p_value[value] (3 decimals) and @independent[yes/no] (yes if
    independence is not rejected at alpha = 0.05).""")
def tips_chi2_day_smoker(d: Data) -> dict:
    stat, p, _ = chi2(d[T], "day", "smoker")
    return {"chi2": r(stat, 3), "p_value": r(p, 3), "independent": yes_no(p >= 0.05)}


@q("test", T, """Do smokers tip differently from non-smokers? Drop the missing tips and run Welch's t-test; what's
    the p-value, to 3 decimals?""")
def tips_welch_tip_smoker(d: Data) -> dict:
    t = d[T]
    _, p = ttest(t[t.smoker == "Yes"].tip, t[t.smoker == "No"].tip, equal_var=False)
    return {"p_value": r(p, 3)}


@q("test", T, """One-way ANOVA of tip across the four days (missing tips dropped): report the F statistic and the
    p-value as @F[value] and @p_value[value], three decimals each.""")
def tips_anova_tip_day(d: Data) -> dict:
    f, p = anova(d[T], "tip", "day")
    return {"F": r(f, 3), "p_value": r(p, 3)}


@q("correlation", T, """Pearson correlation between total_bill and tip, using only rows where the tip is present?
    Round to 3 decimals.""")
def tips_pearson_bill_tip(d: Data) -> dict:
    return {"pearson": r(corr(d[T].total_bill, d[T].tip, "pearson"), 3)}


@q("regression", T, """Regress tip on total_bill (OLS with intercept, rows with a missing tip dropped). Report
    @slope[value] to 4 decimals and @r_squared[value] to 3 decimals.""")
def tips_ols_tip_bill(d: Data) -> dict:
    fit = ols(d[T].tip, d[T].total_bill)
    return {"slope": r(fit["slope"], 4), "r_squared": r(fit["r2"], 3)}


@q("stat_filter", T, "What's the median total bill for parties of four or more people?")
def tips_median_bill_large_parties(d: Data) -> dict:
    t = d[T]
    return {"median": t[t["size"] >= 4].total_bill.median()}


@q("stat_filter", T, """Tip as a percentage of the bill is 100 * tip / total_bill. What is its mean over the rows
    with a recorded tip? Answer as @mean_tip_pct[value] rounded to 2 decimals.""")
def tips_mean_tip_pct(d: Data) -> dict:
    t = d[T].dropna(subset=["tip"])
    return {"mean_tip_pct": r((100 * t.tip / t.total_bill).mean(), 2)}


@q("outlier", T, """How many total_bill values are outliers by the 1.5*IQR rule, with quartiles computed by linear
    interpolation (the pandas default)?""")
def tips_iqr_total_bill(d: Data) -> dict:
    return {"outliers": iqr_outliers(d[T].total_bill)}


@q("outlier", T, """Standardise total_bill with its sample standard deviation (ddof=1) and count the bills whose
    z-score is greater than 3 in absolute value.""")
def tips_z_total_bill(d: Data) -> dict:
    return {"outliers": z_outliers(d[T].total_bill, ddof=1)}


@q("stat", P, "How many penguins have a missing sex in penguins.csv?")
def penguins_missing_sex(d: Data) -> dict:
    return {"missing": int(d[P].sex.isna().sum())}


@q("stat", P, "How many rows of penguins.csv are complete, with no missing value in any column?")
def penguins_complete_rows(d: Data) -> dict:
    return {"complete": len(d[P].dropna())}


@q("group", P, """What is the mean body mass (body_mass_g) of each species, ignoring missing values? Round to one
    decimal.""")
def penguins_mass_by_species(d: Data) -> dict:
    means = d[P].groupby("species").body_mass_g.mean()
    return {name: r(value, 1) for name, value in means.items()}


@q("argmax", P, "Which penguin species has the longest flippers on average? Answer as @species[value].",
   checker="exact")
def penguins_species_max_flipper(d: Data) -> dict:
    return {"species": unique_arg(d[P].groupby("species").flipper_length_mm.mean())}


@q("argmax", P, "Which island has the most penguins in the data?", checker="exact")
def penguins_island_most(d: Data) -> dict:
    return {"island": unique_arg(d[P].island.value_counts())}


@q("argmax", P, "On which island is the average body mass lowest?", checker="exact")
def penguins_island_lightest(d: Data) -> dict:
    return {"island": unique_arg(d[P].groupby("island").body_mass_g.mean(), largest=False)}


@q("test", P, """Run a one-way ANOVA comparing bill_length_mm across the three species (missing values dropped).
    Is there a significant difference at alpha = 0.05? Answer as @F[value] (1 decimal) and
    @significant[yes/no].""")
def penguins_anova_bill_length(d: Data) -> dict:
    f, p = anova(d[P], "bill_length_mm", "species")
    return {"F": r(f, 1), "significant": yes_no(p < 0.05)}


@q("test", P, """Among Gentoo penguins, compare the body mass of males and females with Welch's t-test (rows with
    missing sex or mass excluded). What is the t statistic (male minus female), to 3 decimals?""")
def penguins_welch_gentoo_mass(d: Data) -> dict:
    g = d[P][d[P].species == "Gentoo"]
    t, _ = ttest(g[g.sex == "male"].body_mass_g, g[g.sex == "female"].body_mass_g, equal_var=False)
    return {"t": r(t, 3)}


@q("test", P, """Test independence between species and sex with a chi-square test (leave out the penguins whose sex
    is missing). Report the p-value to 3 decimals.""")
def penguins_chi2_species_sex(d: Data) -> dict:
    _, p, _ = chi2(d[P].dropna(subset=["sex"]), "species", "sex")
    return {"p_value": r(p, 3)}


@q("test", P, """Shapiro-Wilk normality test of bill_length_mm for Chinstrap penguins: give @p_value[value]
    (4 decimals) and whether normality is rejected at the 5% level, @reject[yes/no].""")
def penguins_shapiro_chinstrap_bill(d: Data) -> dict:
    p_ = d[P]
    _, p = shapiro(p_[p_.species == "Chinstrap"].bill_length_mm)
    return {"p_value": r(p, 4), "reject": yes_no(p < 0.05)}


@q("correlation", P, """What is the Pearson correlation between bill length and bill depth over all penguins with
    both measured? Three decimals.""")
def penguins_pearson_bill(d: Data) -> dict:
    return {"pearson": r(corr(d[P].bill_length_mm, d[P].bill_depth_mm, "pearson"), 3)}


@q("regression", P, """Fit body_mass_g = a + b * flipper_length_mm with OLS, dropping rows with missing values.
    Give the slope b and the intercept a, to 2 decimals.""")
def penguins_ols_mass_flipper(d: Data) -> dict:
    fit = ols(d[P].body_mass_g, d[P].flipper_length_mm)
    return {"slope": r(fit["slope"], 2), "intercept": r(fit["intercept"], 2)}


@q("stat_filter", P, "Median bill depth (bill_depth_mm) of the penguins on Dream island?")
def penguins_median_depth_dream(d: Data) -> dict:
    p_ = d[P]
    return {"median": p_[p_.island == "Dream"].bill_depth_mm.median()}


@q("outlier", P, """Within Chinstrap penguins only, how many body_mass_g values are outliers by the 1.5 IQR rule
    (quartiles by linear interpolation, as pandas' quantile does)? Answer as @n_outliers[value].""")
def penguins_iqr_chinstrap_mass(d: Data) -> dict:
    p_ = d[P]
    return {"n_outliers": iqr_outliers(p_[p_.species == "Chinstrap"].body_mass_g)}


@q("multi_stat", P, """Give the mean and the standard deviation (sample) of flipper_length_mm, two decimals, NaNs
    skipped.""")
def penguins_flipper_mean_std(d: Data) -> dict:
    s = d[P].flipper_length_mm
    return {"mean": r(s.mean(), 2), "standard deviation": r(s.std(ddof=1), 2)}


@q("stat_filter", FL, "What was the total number of passengers in 1955?")
def flights_total_1955(d: Data) -> dict:
    f = d[FL]
    return {"total": f[f.year == 1955].passengers.sum()}


@q("stat", FL, "How many months in flights.csv have no passenger count?")
def flights_missing(d: Data) -> dict:
    return {"missing": int(d[FL].passengers.isna().sum())}


@q("argmax", FL, """Which calendar month has the highest average number of passengers across the years (missing
    months skipped)? Answer with the month abbreviation as it appears in the month column.""", checker="exact")
def flights_busiest_month(d: Data) -> dict:
    return {"month": unique_arg(d[FL].groupby("month").passengers.mean())}


@q("argmax", FL, "Which year had the largest total passenger count? Answer as @year[value].")
def flights_busiest_year(d: Data) -> dict:
    return {"year": unique_arg(d[FL].groupby("year").passengers.sum())}


@q("group", FL, """Average passengers in January versus July over all years, as @mean_jan[value] and
    @mean_jul[value], rounded to 2 decimals.""")
def flights_jan_jul(d: Data) -> dict:
    means = d[FL].groupby("month").passengers.mean()
    return {"mean_jan": r(means["Jan"], 2), "mean_jul": r(means["Jul"], 2)}


@q("group", FL, """In which calendar months does the average passenger count (over the years, missing months
    skipped) exceed 300?""", checker="contains")
def flights_months_above_300(d: Data) -> dict:
    means = d[FL].groupby("month").passengers.mean()
    return {f"month{i}": name for i, name in enumerate(sorted(means[means > 300].index), 1)}


@q("stat_filter", FL, "Before 1955, what was the highest monthly passenger count?")
def flights_max_before_1955(d: Data) -> dict:
    f = d[FL]
    return {"max": f[f.year < 1955].passengers.max()}


@q("correlation", FL, "Spearman correlation between year and passengers (ignore missing), 4 decimals.")
def flights_spearman_year(d: Data) -> dict:
    return {"spearman": r(corr(d[FL].year, d[FL].passengers, "spearman"), 4)}


@q("regression", FL, """Using the monthly rows with a passenger count, regress passengers on year by OLS. By how
    many passengers per year does the fitted line rise? Answer as @slope[value], two decimals.""")
def flights_ols_year(d: Data) -> dict:
    return {"slope": r(ols(d[FL].passengers, d[FL].year.astype(float))["slope"], 2)}


@q("test", FL, """Are the 1960 monthly passenger counts normally distributed? Shapiro-Wilk, alpha = 0.05: give the
    p-value (3 decimals).""")
def flights_shapiro_1960(d: Data) -> dict:
    f = d[FL]
    _, p = shapiro(f[f.year == 1960].passengers)
    return {"p_value": r(p, 3)}


@q("multi_stat", FL, """Give the median of passengers and its interquartile range (Q3 - Q1, linear interpolation),
    skipping missing months.""")
def flights_median_iqr(d: Data) -> dict:
    s = d[FL].passengers
    return {"median": s.median(), "interquartile range": s.quantile(0.75) - s.quantile(0.25)}

