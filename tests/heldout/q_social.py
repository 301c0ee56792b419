"""Questions on the Spector teaching-method data, US state crime rates and the 1996 American election survey."""

from __future__ import annotations

from tests.heldout.registry import Data, q
from tests.heldout.stats import chi2, corr, iqr_outliers, ols, r, shapiro, ttest, unique_arg, unique_mode, yes_no

SP, SC, A = "spector", "statecrime", "anes96"


@q("stat", SP, "What is the mean GPA of the students in spector.csv? Answer as @mean_gpa[value] to 3 decimals.")
def spector_mean_gpa(d: Data) -> dict:
    return {"mean_gpa": r(d[SP].GPA.mean(), 3)}


@q("stat_filter", SP, """Among students taught with the PSI method (PSI = 1), what proportion improved their grade
    (GRADE = 1)? Give the proportion as a number between 0 and 1, to three decimals.""")
def spector_psi_grade_rate(d: Data) -> dict:
    s = d[SP]
    return {"proportion": r(s[s.PSI == 1].GRADE.mean(), 3)}


@q("test", SP, """Do PSI students (PSI = 1) have a different mean GPA from the others (PSI = 0)? Use Welch's t-test
    at the 5% level. Report @p_value[value] (3 decimals) and @different[yes/no].""")
def spector_welch_gpa_psi(d: Data) -> dict:
    s = d[SP]
    _, p = ttest(s[s.PSI == 1].GPA, s[s.PSI == 0].GPA, equal_var=False)
    return {"p_value": r(p, 3), "different": yes_no(p < 0.05)}


@q("test", SP, """Is grade improvement (GRADE) associated with the teaching method (PSI)? Run a Pearson
    chi-square test of independence on the 2x2 table WITHOUT Yates' continuity correction and give the p-value,
    rounded to 4 decimals.""")
def spector_chi2_psi_grade(d: Data) -> dict:
    _, p, _ = chi2(d[SP], "PSI", "GRADE", correction=False)
    return {"p_value": r(p, 4)}


@q("test", SP, """Student's t-test (equal variances assumed): compare GPA between students whose grade improved
    (GRADE = 1) and those whose grade did not (GRADE = 0). Answer as @t_statistic[value] and @p_value[value], both
    to 4 decimals.""")
def spector_student_gpa_grade(d: Data) -> dict:
    s = d[SP]
    t, p = ttest(s[s.GRADE == 1].GPA, s[s.GRADE == 0].GPA, equal_var=True)
    return {"t_statistic": r(t, 4), "p_value": r(p, 4)}


@q("correlation", SP, "pearson correlation of GPA with TUCE score, 3 decimals")
def spector_pearson_gpa_tuce(d: Data) -> dict:
    return {"pearson": r(corr(d[SP].GPA, d[SP].TUCE, "pearson"), 3)}


@q("multi_stat", SP, "What are the lowest and highest TUCE scores? Give the minimum and the maximum.")
def spector_tuce_range(d: Data) -> dict:
    return {"minimum": d[SP].TUCE.min(), "maximum": d[SP].TUCE.max()}


@q("argmax", SC, """Which entry of the state column (the 50 states plus DC) has the highest murder rate?""",
   checker="exact")
def statecrime_max_murder(d: Data) -> dict:
    return {"state": unique_arg(d[SC].set_index("state").murder)}


@q("argmax", SC, "Name the state with the lowest poverty rate (poverty). Answer as @state[value].", checker="exact")
def statecrime_min_poverty(d: Data) -> dict:
    return {"state": unique_arg(d[SC].set_index("state").poverty, largest=False)}


@q("argmax", SC, "Which state has the smallest share of urban population (urban)?", checker="exact")
def statecrime_min_urban(d: Data) -> dict:
    return {"state": unique_arg(d[SC].set_index("state").urban, largest=False)}


@q("correlation", SC, """Compute the Pearson correlation between the poverty rate and the violent crime rate
    (violent) across the 51 rows. Report it as @corr[value], rounded to 3 decimals.""")
def statecrime_pearson_poverty_violent(d: Data) -> dict:
    return {"corr": r(corr(d[SC].poverty, d[SC].violent, "pearson"), 3)}


@q("correlation", SC, "Kendall rank correlation (tau-b) between single and murder? Three decimals please.")
def statecrime_kendall_single_murder(d: Data) -> dict:
    return {"kendall": r(corr(d[SC].single, d[SC].murder, "kendall"), 3)}


@q("regression", SC, """Regress the murder rate on the percentage of single-parent households (single) with OLS.
    What are the slope and the R-squared? Round the slope to 4 and R-squared to 3 decimals.""")
def statecrime_ols_murder_single(d: Data) -> dict:
    fit = ols(d[SC].murder, d[SC].single)
    return {"slope": r(fit["slope"], 4), "R-squared": r(fit["r2"], 3)}


@q("regression", SC, """Excluding the District of Columbia, fit murder = a + b * poverty by least squares. Give
    @intercept[value] and @slope[value] to 3 decimals.""")
def statecrime_ols_murder_poverty_no_dc(d: Data) -> dict:
    c = d[SC]
    c = c[c.state != "District of Columbia"]
    fit = ols(c.murder, c.poverty)
    return {"intercept": r(fit["intercept"], 3), "slope": r(fit["slope"], 3)}


@q("stat_filter", SC, "How many of the 51 rows (states and DC) have a high-school graduation rate (hs_grad) above 90?")
def statecrime_count_hs90(d: Data) -> dict:
    return {"count": int((d[SC].hs_grad > 90).sum())}


@q("stat_filter", SC, """What is the average poverty rate across the states when the District of Columbia is left
    out? Answer as @mean_poverty[value], to 3 decimals.""")
def statecrime_mean_poverty_no_dc(d: Data) -> dict:
    c = d[SC]
    return {"mean_poverty": r(c[c.state != "District of Columbia"].poverty.mean(), 3)}


@q("stat", SC, "What's the median of the urban column in statecrime.csv?")
def statecrime_median_urban(d: Data) -> dict:
    return {"median": d[SC].urban.median()}


@q("outlier", SC, """Using the IQR method (1.5 x IQR beyond the quartiles, linear-interpolation quartiles), how many
    rows have an outlying violent crime rate? Answer as @n_outliers[value].""")
def statecrime_iqr_violent(d: Data) -> dict:
    return {"n_outliers": iqr_outliers(d[SC].violent)}


@q("multi_stat", SC, """Give the mean and the sample standard deviation of the white column, two decimals
    each.""")
def statecrime_white_mean_std(d: Data) -> dict:
    s = d[SC].white
    return {"mean": r(s.mean(), 2), "standard deviation": r(s.std(ddof=1), 2)}


@q("test", SC, """Test whether hs_grad is normally distributed with the Shapiro-Wilk test. Report the p-value as
    @p_value[value] (4 decimals), and whether normality is rejected at alpha = 0.05 as @reject[yes/no].""")
def statecrime_shapiro_hsgrad(d: Data) -> dict:
    _, p = shapiro(d[SC].hs_grad)
    return {"p_value": r(p, 4), "reject": yes_no(p < 0.05)}


@q("test", SC, """Split the rows into more urban (urban > 70) and less urban (urban <= 70). Is the violent crime
    rate different between the two groups according to a Welch t-test? Give the p-value.""")
def statecrime_welch_urban(d: Data) -> dict:
    c = d[SC]
    _, p = ttest(c[c.urban > 70].violent, c[c.urban <= 70].violent, equal_var=False)
    return {"p_value": r(p, 4)}


@q("stat", A, "What is the average age of the respondents in anes96.csv?")
def anes_mean_age(d: Data) -> dict:
    return {"mean": d[A].age.mean()}


@q("stat", A, "Which education level (educ) occurs most often? Answer as @mode_educ[value].")
def anes_mode_educ(d: Data) -> dict:
    return {"mode_educ": unique_mode(d[A].educ)}


@q("stat_filter", A, """What is the median income category (income) of respondents who watch TV news every day of
    the week (TVnews = 7)?""")
def anes_median_income_daily_news(d: Data) -> dict:
    a = d[A]
    return {"median": a[a.TVnews == 7].income.median()}


@q("group", A, """vote is 1 for Dole and 0 for Clinton. For each party identification PID from 0 (strong
    Democrat) to 6 (strong Republican), the share voting Dole is the mean of vote. Report the share for PID = 0
    and PID = 6 as @dole_share_pid0[value] and @dole_share_pid6[value], 3 decimals.""")
def anes_dole_share_pid(d: Data) -> dict:
    share = d[A].groupby("PID").vote.mean()
    return {"dole_share_pid0": r(share[0], 3), "dole_share_pid6": r(share[6], 3)}


@q("group", A, """Mean self-placement on the liberal-conservative scale (selfLR) among Dole voters (vote = 1) and
    among Clinton voters (vote = 0)? Answer as @selfLR_dole[value] and @selfLR_clinton[value], 2 decimals.""")
def anes_selflr_by_vote(d: Data) -> dict:
    means = d[A].groupby("vote").selfLR.mean()
    return {"selfLR_dole": r(means[1], 2), "selfLR_clinton": r(means[0], 2)}


@q("test", A, """Is vote choice (vote) independent of education level (educ)? Use a chi-square test of
    independence on their contingency table. Give the p-value, to three decimals.""")
def anes_chi2_vote_educ(d: Data) -> dict:
    _, p, _ = chi2(d[A], "vote", "educ")
    return {"p_value": r(p, 3)}


@q("test", A, """Do Dole voters (vote = 1) and Clinton voters (vote = 0) differ in age? Use Welch's t-test.
    Is the difference significant at the 10% level, and at the 5% level? Answer as @significant_10[yes/no] and
    @significant_5[yes/no].""", checker="exact")
def anes_welch_age_vote(d: Data) -> dict:
    a = d[A]
    _, p = ttest(a[a.vote == 1].age, a[a.vote == 0].age, equal_var=False)
    return {"significant_10": yes_no(p < 0.10), "significant_5": yes_no(p < 0.05)}


@q("correlation", A, "How do selfLR and PID correlate? Use Spearman's rank correlation, rounded to three decimals.")
def anes_spearman_selflr_pid(d: Data) -> dict:
    return {"spearman": r(corr(d[A].selfLR, d[A].PID, "spearman"), 3)}


@q("outlier", A, """How many respondents have an outlying population of their place of residence (popul) by the
    1.5*IQR rule (values strictly beyond Q1 - 1.5*IQR or Q3 + 1.5*IQR)?""")
def anes_iqr_popul(d: Data) -> dict:
    return {"outliers": iqr_outliers(d[A].popul)}
