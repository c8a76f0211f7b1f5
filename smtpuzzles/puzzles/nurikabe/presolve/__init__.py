"""Facts proved before Z3: deductions, one level of hypotheses, backtracking over the
deductions and growing the wall. Every fact is implied by the rules."""
