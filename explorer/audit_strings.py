"""Every sentence of the audit report, in Korean and English.

A template asks for ``t("key")``; ``{name}`` fields are filled by the caller
with ``t("key", name=value)``. Values are escaped by Jinja after formatting.
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "title": {
        "ko": "합성 데이터 멤버십 추론 감사 보고서",
        "en": "Membership-inference audit of a synthetic data release",
    },
    "subtitle": {
        "ko": "explorer audit 이 공개 전 합성 데이터에 여러 공격을 실행한 결과입니다.",
        "en": "What explorer audit found when it attacked the release before publication.",
    },
    "contents": {"ko": "목차", "en": "Contents"},
    "summary": {"ko": "요약", "en": "Summary"},
    "verdict_leak": {
        "ko": "판정: 유출 검출 — 모든 공격을 함께 고려해도 가장 강한 공격이 멤버와 비멤버의 "
        "이름표를 무작위로 바꾼 {permutations:,} 번의 순열보다 둘을 잘 구별합니다 (전체 p = {p} "
        "≤ α = {alpha}).",
        "en": "Verdict: leak detected — even counting every attack run, the best one tells "
        "members from non-members better than under {permutations:,} random relabellings of "
        "the two groups (family-wise p = {p} ≤ α = {alpha}).",
    },
    "verdict_none": {
        "ko": "판정: α = {alpha} 에서 유출의 증거 없음 — 가장 강한 공격도 멤버와 비멤버의 "
        "이름표를 무작위로 바꾼 {permutations:,} 번의 순열보다 뚜렷하게 잘 구별하지 못합니다 "
        "(전체 p = {p}).",
        "en": "Verdict: no evidence of a leak at α = {alpha} — even the best attack does not "
        "tell members from non-members clearly better than under {permutations:,} random "
        "relabellings of the two groups (family-wise p = {p}).",
    },
    "summary_best": {
        "ko": "보정된 p 값이 가장 작은 공격: {attack}. AUC {auc} (부트스트랩 95 % 구간 "
        "{lo}–{hi}), 실행한 모든 공격을 고려해 보정한 p 값 {p}.",
        "en": "The attack with the smallest corrected p-value is {attack}: AUC {auc} (bootstrap "
        "95 % interval {lo}–{hi}), p-value {p} after correcting for every attack run.",
    },
    "summary_epsilon": {
        "ko": "이 공개본은 ε ≥ {epsilon} 인 ε-차분 프라이버시 메커니즘보다 나을 것이 없습니다 "
        "(신뢰도 {confidence}, {attack} 의 기준값을 대상의 절반에서 고르고 나머지 절반에서 측정). "
        "이 하한은 누가 멤버가 될지가 무작위로 정해졌을 때만 유효합니다.",
        "en": "This release behaves at least as badly as an ε-DP mechanism with ε ≥ {epsilon} "
        "({confidence} confidence; the threshold of {attack} chosen on half of the targets and "
        "measured on the other half). The bound holds only if membership was assigned at random.",
    },
    "summary_epsilon_zero": {
        "ko": "공격들로부터 양의 ε 하한을 얻지 못했습니다 (신뢰도 {confidence}). 이것이 공개본이 "
        "차분 프라이버시를 만족한다는 뜻은 아닙니다.",
        "en": "The attacks give no positive lower bound on ε ({confidence} confidence). That does "
        "not mean the release is differentially private.",
    },
    "summary_tpr": {
        "ko": "위양성률 {fpr} 이하인 기준값에서 {attack} 공격이 찾아내는 멤버의 비율은 {tpr} "
        "입니다 (정확한 95 % 구간 {lo}–{hi}).",
        "en": "At a false-positive rate of at most {fpr}, {attack} finds {tpr} of the members "
        "(exact 95 % interval {lo}–{hi}).",
    },
    "summary_too_few": {
        "ko": "비멤버가 {nonmembers:,} 명뿐이라 위양성률 {fpr} 에서의 참양성률은 측정할 수 "
        "없습니다. 적어도 {needed:,} 명의 비멤버가 필요합니다.",
        "en": "With {nonmembers:,} non-members, the true-positive rate at a false-positive rate "
        "of {fpr} cannot be measured: that takes at least {needed:,} non-members.",
    },
    "assumes": {"ko": "판정이 가정하는 것", "en": "What the verdict assumes"},
    "assumes_exchangeable": {
        "ko": '이 판정은 "공개본이 주어졌을 때 멤버와 비멤버는 서로 바꿔도 구별되지 않는다"는 '
        "가설을 검정합니다. 이는 멤버와 비멤버가 같은 방식으로 뽑혔다고 (예: 한 데이터에서 "
        "무작위로 나눔) 가정합니다. 비멤버를 다른 해, 다른 기관, 다른 전처리에서 가져왔다면 검정은 "
        "유출이 아니라 그 차이를 검출합니다.",
        "en": 'The verdict tests one hypothesis: "members and non-members are exchangeable '
        'given the release". That assumes they were drawn the same way (for example by a random '
        "split of one data set). If the non-members come from another year, another site or "
        "another cleaning step, the test detects that difference, not a leak.",
    },
    "assumes_family": {
        "ko": "오경보율 α 는 실행한 모든 공격에 함께 적용됩니다. 가장 좋은 공격을 고르는 것까지 "
        '보정되므로, 아무것도 유출하지 않는 공개본에서 "유출 검출"이 나올 확률은 α 이하입니다.',
        "en": "The false-alarm rate α covers every attack run, including the choice of the best "
        'one: on a release that leaks nothing, "leak detected" comes up with probability at '
        "most α.",
    },
    "assumes_not_rejected": {
        "ko": '"유출의 증거 없음"은 유출이 없다는 뜻이 아닙니다. 여기 있는 공격들이 이 크기의 '
        "평가 데이터로 유출을 보여 주지 못했다는 뜻일 뿐입니다. 멤버와 비멤버가 적을수록 검정이 "
        "놓치기 쉽고, 다른 공격은 성공할 수 있습니다. 보장이 필요하면 차분 프라이버시로 생성기를 "
        "학습하세요 (3강).",
        "en": '"No evidence of a leak" does not mean there is no leak. It means these attacks, '
        "with this many members and non-members, did not show one: small evaluation sets miss "
        "leaks easily, and other attacks may succeed. A guarantee needs a generator trained with "
        "differential privacy (lesson 03).",
    },
    "assumes_epsilon": {
        "ko": "ε 하한은 차분 프라이버시 감사의 방법을 따릅니다 (Jagielski 외 2020; Nasr 외 2021). "
        "공격과 기준값은 대상의 절반에서 고르고, 나머지 절반에서 한 집단이 기준을 넘는 비율의 "
        "정확한 하한과 다른 집단의 같은 비율의 정확한 상한의 로그 비로 ε 을 잽니다. 멤버가 "
        "무작위로 정해지지 않았다면 (예: 전형적인 레코드만 골라 학습) 이 값은 아무것도 말해 주지 "
        "않습니다.",
        "en": "The ε lower bound follows DP auditing (Jagielski et al. 2020; Nasr et al. 2021): "
        "the attack and its threshold are chosen on half of the targets, and ε is measured on the "
        "other half as the log ratio of an exact lower bound on one group's rate to an exact upper "
        "bound on the other's. If membership was not assigned at random (say, only typical "
        "records were used for training), the number says nothing.",
    },
    "summary_no_nonmembers": {
        "ko": "비멤버 파일이 주어지지 않아 AUC 와 참양성률은 계산하지 않았습니다. 레코드별 점수와 "
        "가장 많이 노출된 멤버 순위만 있습니다.",
        "en": "No non-member file was given, so there is no AUC and no true-positive rate: only "
        "per-record scores and the ranking of the most exposed members.",
    },
    "gate_pass": {
        "ko": "공개 기준: 모든 공격의 AUC 가 {limit} 이하입니다 (통과).",
        "en": "Release gate: every attack's AUC is at most {limit} (passed).",
    },
    "gate_fail": {
        "ko": "공개 기준: AUC 가 {limit} 을 넘는 공격이 있습니다: {attacks} (실패).",
        "en": "Release gate: some attacks have an AUC above {limit}: {attacks} (failed).",
    },
    "reading": {"ko": "읽는 법", "en": "How to read this report"},
    "reading_auc": {
        "ko": "AUC 는 임의의 멤버가 임의의 비멤버보다 높은 점수를 받을 확률입니다. 0.5 는 동전 "
        "던지기와 같아 공격이 멤버를 구별하지 못한다는 뜻이고, 1 에 가까울수록 학습 레코드가 합성 "
        "데이터에서 드러납니다.",
        "en": "The AUC is the chance that a random member scores higher than a random non-member. "
        "At 0.5 the attack does no better than a coin toss; the closer to 1, the more the training "
        "records show through the synthetic data.",
    },
    "reading_tpr": {
        "ko": "위양성률(FPR) 0.001 에서의 참양성률(TPR)은 공격자가 비멤버를 1,000 명 중 1 명만 "
        "잘못 지목하도록 기준을 정했을 때 찾아내는 멤버의 비율입니다. 0.05 라면 학습 레코드 20 개 "
        "중 1 개를 거의 확신하며 지목할 수 있다는 뜻으로, AUC 가 낮아도 심각한 위험입니다.",
        "en": "The true-positive rate (TPR) at a false-positive rate (FPR) of 0.001 is the share "
        "of members an attacker finds when the threshold wrongly flags only one non-member in a "
        "thousand. A value of 0.05 means one training record in twenty can be singled out with "
        "near certainty: a serious risk even when the AUC looks modest.",
    },
    "reading_ci": {
        "ko": "AUC 옆의 구간은 멤버와 비멤버를 각각 다시 뽑은 부트스트랩 95 % 구간입니다. "
        "참양성률은 허용된 수 이하의 비멤버만 지목하는 실제 기준값에서 센 값이며, 구간은 정확한 "
        "(Clopper–Pearson) 95 % 구간입니다. 비멤버가 n 명이면 1/n 보다 작은 위양성률(예: 200 명일 "
        "때 0.001)은 한 명의 오지목도 허용하지 않으므로 측정할 수 없다고 적었습니다.",
        "en": "The interval under each AUC is a stratified bootstrap 95 % interval (members and "
        "non-members resampled separately). Each true-positive rate is counted at an actual "
        "threshold that flags no more non-members than allowed, with an exact (Clopper–Pearson) "
        "95 % interval. With n non-members, a false-positive rate below 1/n (0.001 with 200 "
        "non-members) allows not a single false positive, so it is marked as not measurable.",
    },
    "results": {"ko": "공격별 결과", "en": "Results by attack"},
    "results_caption": {
        "ko": "AUC (괄호: 부트스트랩 95 % 구간), 모든 공격을 고려해 보정한 p 값, 고정된 "
        "위양성률에서의 참양성률 (괄호: 정확한 95 % 구간)",
        "en": "AUC (in brackets: bootstrap 95 % interval), p-value corrected for every attack, and "
        "true-positive rate at fixed false-positive rates (in brackets: exact 95 % interval)",
    },
    "p_adjusted": {"ko": "보정된 p", "en": "Corrected p"},
    "not_measurable": {
        "ko": "비멤버 {nonmembers:,} 명으로는 측정 불가",
        "en": "not measurable with {nonmembers:,} non-members",
    },
    "attack": {"ko": "공격", "en": "Attack"},
    "auc": {"ko": "AUC", "en": "AUC"},
    "tpr_at": {"ko": "TPR @ FPR {fpr}", "en": "TPR at FPR {fpr}"},
    "roc": {"ko": "ROC 곡선", "en": "ROC curves"},
    "roc_linear": {
        "ko": "선형 축: 전체 곡선. 대각선은 무작위 추측입니다.",
        "en": "Linear axes: the whole curve. The diagonal is random guessing.",
    },
    "roc_log": {
        "ko": "로그 축: 낮은 위양성률 영역을 확대합니다. 대각선은 무작위 추측입니다.",
        "en": "Log axes: the low false-positive region enlarged. The diagonal is random guessing.",
    },
    "fpr": {"ko": "위양성률 (FPR)", "en": "False-positive rate (FPR)"},
    "tpr": {"ko": "참양성률 (TPR)", "en": "True-positive rate (TPR)"},
    "chance": {"ko": "무작위", "en": "chance"},
    "distributions": {"ko": "점수 분포", "en": "Score distributions"},
    "distributions_text": {
        "ko": "각 공격의 점수를 멤버와 비멤버로 나눈 분포입니다 (각 집단 안의 비율). 두 분포가 "
        "멀수록 공격이 멤버를 잘 구별합니다. 양 끝 1 % 는 가장자리 구간에 합쳤습니다.",
        "en": "Each attack's scores, members against non-members (share of each group per bin). "
        "The further apart the two, the better the attack tells them apart. The outer 1 % on "
        "each side are counted in the end bins.",
    },
    "score": {"ko": "점수", "en": "Score"},
    "share": {"ko": "집단 내 비율", "en": "Share of group"},
    "group": {"ko": "집단", "en": "Group"},
    "members": {"ko": "멤버", "en": "Members"},
    "nonmembers": {"ko": "비멤버", "en": "Non-members"},
    "reference": {"ko": "참조", "en": "Reference"},
    "synthetic": {"ko": "합성", "en": "Synthetic"},
    "exposed": {"ko": "가장 많이 노출된 멤버", "en": "Most exposed members"},
    "exposed_text": {
        "ko": "{attack} 점수가 가장 높은 멤버 {count} 명을, 공격이 보는 표준화된 공간에서 가장 "
        "가까운 합성 레코드와 함께 원래 단위로 보여 줍니다. 거의 같은 값이 보이면 생성기가 그 "
        "레코드를 기억했을 가능성이 큽니다.",
        "en": "The {count} members with the highest {attack} score, each beside its nearest "
        "synthetic records (nearest in the standardized space the attacks see), in the files' own "
        "units. Near-identical values suggest the generator memorized that record.",
    },
    "exposed_member": {
        "ko": "{rank}위: 멤버 파일 {row}번째 레코드, 점수 {score}",
        "en": "#{rank}: record {row} of the members file, score {score}",
    },
    "exposed_share": {
        "ko": "비멤버 중 이 점수 이상: {share}",
        "en": "Non-members scoring at least as high: {share}",
    },
    "record": {"ko": "레코드", "en": "Record"},
    "distance": {"ko": "거리", "en": "Distance"},
    "member_row": {"ko": "멤버 {row}", "en": "member {row}"},
    "synthetic_row": {"ko": "합성 {row}", "en": "synthetic {row}"},
    "missing_value": {"ko": "(없음)", "en": "(missing)"},
    "method": {"ko": "전처리와 설정", "en": "Preprocessing and settings"},
    "method_scaler": {
        "ko": "모든 열은 합성 데이터의 평균과 모표준편차로 표준화했습니다 (Synth-MIA 테스트베드의 "
        "기본값).",
        "en": "Every column was standardized with the synthetic data's mean and population "
        "standard deviation (the Synth-MIA testbed's default).",
    },
    "method_categorical": {
        "ko": "텍스트 열 {columns} 은 네 파일 전체에서 정렬한 범주 순서로 번호를 매긴 뒤 "
        "표준화했습니다.",
        "en": "Text columns {columns} were numbered in the sorted order of their categories over "
        "all files, then standardized.",
    },
    "method_dropped": {
        "ko": "열 '{column}' 은 {where} 데이터에서 값이 하나({value})뿐이라 제외했습니다.",
        "en": "Column '{column}' was dropped: it takes a single value ({value}) in the {where} "
        "data.",
    },
    "method_near_constant": {
        "ko": "열 '{column}' 은 {where} 데이터에서 거의 변하지 않아(퍼짐이 네 파일 전체 퍼짐의 "
        "{tolerance} 미만) 제외했습니다. 이 열로만 드러나는 누출은 이 감사가 보지 못합니다.",
        "en": "Column '{column}' was dropped: it is nearly constant in the {where} data (its "
        "spread is below {tolerance} of its spread over all four files). A leak that shows only "
        "in this column is not seen by this audit.",
    },
    "method_imputed": {
        "ko": "{file} 파일의 '{column}' 열에서 빠진 값 {count} 개를 {value} 로 채웠습니다 (합성 "
        "데이터의 중앙값 또는 최빈값).",
        "en": "{count} missing values in column '{column}' of the {file} file were filled with "
        "{value} (the synthetic data's median, or most frequent value).",
    },
    "method_dims": {
        "ko": "표준화한 레코드를 참조 데이터의 첫 {dims} 개 주성분에 사영했습니다 (참조 분산의 "
        "{share} 보존).",
        "en": "The standardized records were projected onto the first {dims} principal components "
        "of the reference data (keeping {share} of its variance).",
    },
    "method_high_dimension": {
        "ko": "공격이 보는 차원이 {dims} 개로 많아 커널 밀도 추정이 부정확할 수 있습니다. --dims "
        "로 차원을 줄여 다시 실행해 보세요.",
        "en": "The attacks see {dims} dimensions, too many for a reliable kernel density estimate; "
        "consider running again with --dims to reduce them.",
    },
    "setting": {"ko": "설정", "en": "Setting"},
    "value": {"ko": "값", "en": "Value"},
    "setting_attacks": {"ko": "공격", "en": "Attacks"},
    "setting_k": {"ko": "Gen-LRA 의 k (합성 이웃 수)", "en": "Gen-LRA's k (synthetic neighbours)"},
    "setting_bandwidth": {"ko": "KDE 대역폭", "en": "KDE bandwidth"},
    "setting_logan_epochs": {
        "ko": "LOGAN 학습 에포크 (최대)",
        "en": "LOGAN training epochs (at most)",
    },
    "setting_seed": {"ko": "시드", "en": "Seed"},
    "setting_bootstrap": {"ko": "부트스트랩 반복", "en": "Bootstrap replicates"},
    "setting_alpha": {"ko": "판정의 유의수준 α", "en": "Verdict's α (false-alarm rate)"},
    "setting_permutations": {"ko": "이름표 순열 수", "en": "Label permutations"},
    "setting_tpr_rule": {"ko": "FPR 에서의 TPR 읽기", "en": "TPR at FPR"},
    "tpr_rule": {
        "ko": "이 보고서: 허용된 수 이하의 비멤버만 지목하는 실제 기준값의 TPR 과 정확한 구간. "
        "results.json 의 tpr_at_fpr: ROC 곡선 위 선형 보간 (테스트베드 규칙)",
        "en": "this report: the TPR of an actual threshold that flags no more non-members than "
        "allowed, with an exact interval; tpr_at_fpr in results.json: linear interpolation on "
        "the ROC curve (the testbed's rule)",
    },
    "setting_dims": {"ko": "주성분 수", "en": "Principal components"},
    "setting_impute": {"ko": "빠진 값", "en": "Missing values"},
    "impute_none": {"ko": "오류로 처리", "en": "an error"},
    "impute_median": {"ko": "중앙값으로 채움", "en": "filled with the median"},
    "none": {"ko": "없음", "en": "none"},
    "inputs": {"ko": "입력 파일", "en": "Input files"},
    "role": {"ko": "역할", "en": "Role"},
    "file": {"ko": "파일", "en": "File"},
    "rows": {"ko": "행", "en": "Rows"},
    "columns": {"ko": "열", "en": "Columns"},
    "versions": {"ko": "패키지 버전", "en": "Package versions"},
    "package": {"ko": "패키지", "en": "Package"},
    "version": {"ko": "버전", "en": "Version"},
    "sources": {"ko": "공격의 출처", "en": "Where the attacks come from"},
    "limits": {"ko": "한계", "en": "Limits"},
    "limits_reference": {
        "ko": "이 감사는 참조 표본이 학습 데이터와 같은 모집단에서 왔다고 가정합니다. 다른 "
        "모집단의 표본이면 점수는 기억이 아니라 모집단의 차이를 잽니다.",
        "en": "The audit assumes the reference sample comes from the same population as the "
        "training data. A sample from another population makes the scores measure that difference "
        "instead of memorization.",
    },
    "limits_empirical": {
        "ko": "이것은 경험적 공격입니다. 낮은 점수는 여기 있는 공격이 실패했다는 뜻일 뿐, "
        "프라이버시를 보장하지 않습니다. 보장이 필요하면 차분 프라이버시(3강)로 생성기를 "
        "학습하세요.",
        "en": "These are empirical attacks. A low score only means that these attacks failed; it "
        "is not a privacy guarantee. For a guarantee, train the generator with differential "
        "privacy (lesson 03).",
    },
    "footer": {
        "ko": "Privacy & Copyright — Trustworthy AI 의 explorer audit 이 만든 보고서입니다. 외부 "
        "요청 없이 열립니다.",
        "en": "Written by explorer audit (Privacy & Copyright — Trustworthy AI). It opens offline "
        "and requests nothing from outside this file.",
    },
    "chart_roc_linear": {"ko": "ROC 곡선 (선형 축)", "en": "ROC curves (linear axes)"},
    "chart_roc_log": {"ko": "ROC 곡선 (로그 축)", "en": "ROC curves (log axes)"},
    "chart_distributions": {
        "ko": "공격별 멤버와 비멤버의 점수 분포",
        "en": "Score distributions of members and non-members, by attack",
    },
}


def translate(key: str, lang: str, **fields: object) -> str:
    """The sentence ``key`` in ``lang``, with ``{name}`` fields filled in."""
    text = STRINGS[key][lang]
    return text.format(**fields) if fields else text
