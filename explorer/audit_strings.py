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
    "verdict_and_reading": {"ko": "판정과 읽는 법", "en": "The verdict and how to read it"},
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
        "ko": "이 공개본은 ε ≥ {epsilon} 인 ε-차등 개인정보보호 메커니즘보다 나을 것이 "
        "없습니다 (신뢰도 {confidence}, {attack} 의 기준값을 대상의 절반에서 고르고 나머지 "
        "절반에서 측정). "
        "이 하한은 누가 멤버가 될지가 무작위로 정해졌을 때만 유효합니다.",
        "en": "This release behaves at least as badly as an ε-DP mechanism with ε ≥ {epsilon} "
        "({confidence} confidence; the threshold of {attack} chosen on half of the targets and "
        "measured on the other half). The bound holds only if membership was assigned at random.",
    },
    "summary_epsilon_zero": {
        "ko": "공격들로부터 양의 ε 하한을 얻지 못했습니다 (신뢰도 {confidence}). 이것이 공개본이 "
        "차등 개인정보보호를 만족한다는 뜻은 아닙니다.",
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
    "at_a_glance": {"ko": "한눈에 보기", "en": "At a glance"},
    "next_steps": {"ko": "다음에 할 일", "en": "What to do next"},
    "explained_in": {"ko": "설명: {lesson}", "en": "Explained in {lesson}"},
    "lesson_02": {"ko": "2강 학습 포함 추론", "en": "lesson 02, Membership inference"},
    "lesson_03": {"ko": "3강 차등 개인정보보호", "en": "lesson 03, Differential privacy"},
    "lesson_05": {
        "ko": "5강 Gen-LRA: 공격과 그 정확한 계산",
        "en": "lesson 05, Gen-LRA: the attack and its exact computation",
    },
    "lesson_06": {"ko": "6강 감사가 잴 수 있는 것", "en": "lesson 06, What an audit can measure"},
    "written_on": {"ko": "작성 시각", "en": "Written"},
    "tool": {"ko": "도구", "en": "Tool"},
    "tool_version": {"ko": "explorer audit {version}", "en": "explorer audit {version}"},
    "checksums": {"ko": "입력 파일 (SHA-256)", "en": "Input files (SHA-256)"},
    "next_leak_dp": {
        "ko": "이 공개본을 그대로 내보내지 마세요. 생성기를 ε 을 정해 차등 개인정보보호로 "
        "학습하세요. 예를 들어 ε = {epsilon} 이면 어떤 공격도 위양성률 {fpr} 에서 "
        "참양성률이 {tpr} 을 넘을 수 없습니다 (기록 하나를 다른 것으로 바꾸는 이웃 관계의 ε, "
        "이 감사가 재는 것). 지금 공개본은 이미 "
        "ε ≥ {bound} 인 메커니즘만큼 나쁩니다.",
        "en": "Do not publish this release as it is. Train the generator with differential "
        "privacy at a stated ε: at ε = {epsilon}, for example, no attack can have a true-positive "
        "rate above {tpr} at a false-positive rate of {fpr} (ε stated for replacing one record "
        "by another, the relation this audit measures). This release "
        "already behaves at least as badly as a mechanism with ε ≥ {bound}.",
    },
    "next_leak_dp_no_bound": {
        "ko": "이 공개본을 그대로 내보내지 마세요. 생성기를 ε 을 정해 차등 개인정보보호로 "
        "학습하세요. 예를 들어 ε = {epsilon} 이면 어떤 공격도 위양성률 {fpr} 에서 "
        "참양성률이 {tpr} 을 넘을 수 없습니다 (기록 하나를 다른 것으로 바꾸는 이웃 관계의 ε, "
        "이 감사가 재는 것).",
        "en": "Do not publish this release as it is. Train the generator with differential "
        "privacy at a stated ε: at ε = {epsilon}, for example, no attack can have a true-positive "
        "rate above {tpr} at a false-positive rate of {fpr} (ε stated for replacing one record "
        "by another, the relation this audit measures).",
    },
    "next_leak_epochs": {
        "ko": "차등 개인정보보호를 쓸 수 없다면 생성기를 더 적은 에포크만 학습하거나 일찍 "
        "멈춘 뒤 다시 감사하세요. 공격은 오래 학습할수록 커지는 과적합을 이용합니다.",
        "en": "If differential privacy is not an option, train the generator for fewer epochs "
        "or stop it earlier, then audit again: the attacks feed on the overfitting that long "
        "training brings.",
    },
    "next_near_copies": {
        "ko": "멤버의 근사 복제본을 지우세요. 합성 기록 {count} 개(행 {rows} 부터)가 합성과 "
        "참조 기록을 합쳐 멤버에 가장 가까운 {share} 안에 있습니다. 멤버를 본 적 없는 "
        "공개본이라면 약 {expected} 개일 것입니다 (정확 검정 p = {p}). 이 기록을 빼거나 "
        "다시 생성한 뒤 다시 감사하세요.",
        "en": "Remove the near-copies of members: {count} synthetic records (rows {rows} first) "
        "are among the {share} of synthetic and reference records pooled that lie closest to a "
        "member, where a release that never saw the members would have about {expected} (exact "
        "test, p = {p}). Drop them or generate again, then audit again.",
    },
    "next_enlarge": {
        "ko": "평가 데이터를 늘리세요. 비멤버 {nonmembers:,} 명으로는 위양성률 {fpr} 에서의 "
        "참양성률을 잴 수 없고, 적어도 {needed:,} 명의 비멤버(와 그만큼의 멤버)가 필요합니다.",
        "en": "Enlarge the evaluation set: with {nonmembers:,} non-members the true-positive "
        "rate at a false-positive rate of {fpr} cannot be measured; that takes at least "
        "{needed:,} non-members (and as many members).",
    },
    "next_dims": {
        "ko": "--dims 로 차원을 줄여 다시 감사하세요. 특성이 {dims} 개이면 Gen-LRA 등이 쓰는 "
        "밀도 추정을 믿기 어렵습니다.",
        "en": "Run the audit again with --dims to reduce the dimensions: with {dims} features "
        "the density estimates behind Gen-LRA and its kin are unreliable.",
    },
    "next_no_evidence": {
        "ko": "유출이 보이지 않았다고 안전이 보장되지는 않습니다. 평가 데이터는 될 수 있는 "
        "대로 크게 두고, 민감한 기록이라면 어떤 공격에도 성립하는 한계를 주는 차등 "
        "개인정보보호로 생성기를 학습하세요.",
        "en": "No leak was shown, which is no guarantee: keep the evaluation set as large as "
        "you can, and if the records are sensitive, train the generator with differential "
        "privacy for a bound that holds against every attack.",
    },
    "next_no_nonmembers": {
        "ko": "--nonmembers 로 비멤버(학습 전에 무작위로 떼어 둔, 생성기가 본 적 없는 같은 "
        "모집단의 기록)를 주세요. 비멤버 없이는 판정도 비율도 없습니다.",
        "en": "Give non-members with --nonmembers (records of the same population, split off "
        "at random before training, that the generator never saw): without them there is no "
        "verdict and no rate.",
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
        "놓치기 쉽고, 다른 공격은 성공할 수 있습니다. 보장이 필요하면 차등 개인정보보호로 "
        "생성기를 학습하세요 (3강).",
        "en": '"No evidence of a leak" does not mean there is no leak. It means these attacks, '
        "with this many members and non-members, did not show one: small evaluation sets miss "
        "leaks easily, and other attacks may succeed. A guarantee needs a generator trained with "
        "differential privacy (lesson 03).",
    },
    "assumes_epsilon": {
        "ko": "ε 하한은 차등 개인정보보호 감사의 방법을 따릅니다 (Jagielski 외 2020; Nasr 외 "
        "2021). 공격과 기준값은 대상의 절반에서 고르고, 나머지 절반에서 한 집단이 기준을 "
        "넘는 비율의 "
        "정확한 하한과 다른 집단의 같은 비율의 정확한 상한의 로그 비로 ε 을 잽니다. 멤버가 "
        "무작위로 정해지지 않았다면 (예: 전형적인 기록만 골라 학습) 이 값은 아무것도 말해 주지 "
        "않습니다.",
        "en": "The ε lower bound follows DP auditing (Jagielski et al. 2020; Nasr et al. 2021): "
        "the attack and its threshold are chosen on half of the targets, and ε is measured on the "
        "other half as the log ratio of an exact lower bound on one group's rate to an exact upper "
        "bound on the other's. If membership was not assigned at random (say, only typical "
        "records were used for training), the number says nothing.",
    },
    "summary_no_nonmembers": {
        "ko": "비멤버 파일이 주어지지 않아 AUC 와 참양성률은 계산하지 않았습니다. 기록별 점수와 "
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
        "던지기와 같아 공격이 멤버를 구별하지 못한다는 뜻이고, 1 에 가까울수록 학습 기록이 합성 "
        "데이터에서 드러납니다.",
        "en": "The AUC is the chance that a random member scores higher than a random non-member. "
        "At 0.5 the attack does no better than a coin toss; the closer to 1, the more the training "
        "records show through the synthetic data.",
    },
    "reading_tpr": {
        "ko": "위양성률(FPR) 0.001 에서의 참양성률(TPR)은 공격자가 비멤버를 1,000 명 중 1 명만 "
        "잘못 지목하도록 기준을 정했을 때 찾아내는 멤버의 비율입니다. 0.05 라면 학습 기록 20 개 "
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
        "가까운 합성 기록과 함께 원래 단위로 보여 줍니다. 거의 같은 값이 보이면 생성기가 그 "
        "기록을 기억했을 가능성이 큽니다.",
        "en": "The {count} members with the highest {attack} score, each beside its nearest "
        "synthetic records (nearest in the standardized space the attacks see), in the files' own "
        "units. Near-identical values suggest the generator memorized that record.",
    },
    "exposed_text_hidden": {
        "ko": "{attack} 점수가 가장 높은 멤버 {count} 명과, 공격이 보는 표준화된 "
        "공간에서 각 멤버에 가장 가까운 합성 기록의 번호와 거리입니다. 거리가 0 에 "
        "가까우면 생성기가 그 기록을 기억했을 가능성이 큽니다. 값은 학습 데이터이므로 "
        "이 보고서에 싣지 않았습니다. 행 번호로 원래 파일에서 찾아보거나, 값을 함께 "
        "보려면 --show-records 로 다시 실행하세요 (그러면 보고서도 학습 데이터만큼 "
        "민감해집니다).",
        "en": "The {count} members with the highest {attack} score, each with the numbers of its "
        "nearest synthetic records and their distances in the standardized space the attacks "
        "see. A distance near 0 suggests the generator memorized that record. The values are "
        "training data, so this report leaves them out: look the rows up in the files, or run "
        "again with --show-records to include them (the report then becomes as sensitive as the "
        "training data).",
    },
    "rank": {"ko": "순위", "en": "Rank"},
    "member_record": {"ko": "멤버 기록", "en": "Member record"},
    "nonmembers_at_least": {
        "ko": "이 점수 이상인 비멤버",
        "en": "Non-members scoring as high",
    },
    "nearest_synthetic": {
        "ko": "가장 가까운 합성 기록 (거리)",
        "en": "Nearest synthetic records (distance)",
    },
    "synthetic_row_at": {"ko": "합성 {row} ({distance})", "en": "synthetic {row} ({distance})"},
    "records_warning_title": {
        "ko": "경고: 이 보고서에는 학습 데이터가 들어 있습니다.",
        "en": "Warning: this report holds training data.",
    },
    "records_warning": {
        "ko": "--show-records 로 만들어져 멤버 기록과 그에 가까운 합성 기록의 값을 그대로 "
        "싣고 있습니다. 학습 데이터와 같은 곳에만 보관하고, 공개본과 함께 보내거나 보관하지 "
        "마세요.",
        "en": "It was written with --show-records and shows member records and the synthetic "
        "records nearest to them value by value. Keep it where the training data is kept; never "
        "mail or archive it with the public release.",
    },
    "method_dropped_hidden": {
        "ko": "열 '{column}' 은 {where} 데이터에서 값이 하나뿐이라 제외했습니다 (참조 데이터의 "
        "값이라 싣지 않았습니다).",
        "en": "Column '{column}' was dropped: it takes a single value in the {where} data (a "
        "value of the reference data, so not shown).",
    },
    "exposed_member": {
        "ko": "{rank}위: 멤버 파일 {row}번째 기록, 점수 {score}",
        "en": "#{rank}: record {row} of the members file, score {score}",
    },
    "exposed_share": {
        "ko": "비멤버 중 이 점수 이상: {share}",
        "en": "Non-members scoring at least as high: {share}",
    },
    "record": {"ko": "기록", "en": "Record"},
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
        "ko": "표준화한 기록을 참조 데이터의 첫 {dims} 개 주성분에 사영했습니다 (참조 분산의 "
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
        "프라이버시를 보장하지 않습니다. 보장이 필요하면 차등 개인정보보호(3강)로 생성기를 "
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
    "chart_distribution": {
        "ko": "{attack}: 멤버와 비멤버의 점수 분포",
        "en": "Scores of members and non-members under {attack}",
    },
}


def translate(key: str, lang: str, **fields: object) -> str:
    """The sentence ``key`` in ``lang``, with ``{name}`` fields filled in."""
    text = STRINGS[key][lang]
    return text.format(**fields) if fields else text
