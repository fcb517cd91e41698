// The Reading page's views by name, and what each one is, in words a class understands (issue 45 §2).
import { t } from '../i18n/locale.svelte.ts';
import type { ReadingViewId } from './reading-link.ts';

export function viewTitle(view: ReadingViewId): string {
  switch (view) {
    case 'tokens': return t('Token by token', '逐词元');
    case 'predict': return t('Predict, then reveal', '先猜后揭晓');
    case 'breaks': return t('断句 (where the breaks go)', '断句');
    case 'lens': return t('Layer by layer (logit lens)', '逐层透镜');
    case 'attention': return t('Where it looks (attention)', '它看向哪里（注意力）');
    case 'sampling': return t('Sampling, seen', '看它抽样');
  }
}

/** Views that read with the lens and attention taps (loaded with the model behind their gates). */
export const viewNeedsTaps = (view: ReadingViewId): boolean => view === 'lens' || view === 'attention';

/** One or two sentences on what the view shows, before its worked example. */
export function viewMeaning(view: ReadingViewId): string {
  switch (view) {
    case 'tokens':
      return t(
        'A model reads text in pieces called tokens (often one character in Chinese) and, before each one, gives every possible next token a chance. The colour says how surprised it was by the token that actually came, in bits: one bit is the surprise of a coin coming up heads; each extra bit halves the chance.',
        '模型把文字切成一个个“词元”来读（中文里常常一个字就是一个词元），在每个词元之前，它都给所有可能的下一个词元一个机会。颜色表示实际出现的词元让它有多意外，单位是比特：一比特相当于抛硬币得到正面的意外；每多一比特，机会就再减半。',
      );
    case 'predict':
      return t(
        'The teacher picks places in the passage. At each, the class sees the text up to there, guesses the next character, and then the page reveals the original and the model’s ten best guesses.',
        '老师在文段中选几处。每到一处，全班只看到此前的文字，先猜下一个字，然后本页揭晓原文和模型最看好的十个答案。',
      );
    case 'breaks':
      return t(
        'Classical texts were written without punctuation; 断句 is deciding where the breaks go. The model reads the passage with its marks taken away, and at each gap the bar shows how likely it thinks a punctuation mark comes next. Where the bar reaches the threshold, the model “breaks” the text; the counts compare its breaks with the original’s.',
        '古书原本不加标点，断句就是判断哪里该停顿。模型读去掉标点的文字，每两个字之间的竖条表示它认为下一个是标点的可能性。竖条达到阈值之处，就算模型在此断句；下面的计数把它的断句和原文的标点相比。',
      );
    case 'lens':
      return t(
        'A model passes the text through a stack of layers, each refining its guess. The logit lens asks every layer what it would predict if the model stopped there: read a column from the bottom up to see the guess take shape.',
        '模型让文字依次经过一层层网络，每一层都修正它的猜测。“logit 透镜”（逐层透镜）让每一层说出：如果模型在这里就停下，它会猜什么。从下往上读一列，就能看到猜测怎样逐渐成形。',
      );
    case 'attention':
      return t(
        'Before predicting what follows a token, each layer looks back at the earlier tokens and weighs them. The shading shows how much weight each earlier token got from the chosen one: darker means the layer looked there more.',
        '在预测一个词元后面是什么之前，每一层都会回头看前面的词元，并给它们分配权重。颜色深浅表示所选词元给前面每个词元多少权重：越深，这一层越看重那里。',
      );
    case 'sampling':
      return t(
        'To write, a model draws its next token at random from its chances. Temperature reshapes the chances (low: surer, high: more adventurous); top-k keeps only the k likeliest tokens. A seed fixes the random draws, so every screen shows the same continuation.',
        '模型写作时，按各词元的机会随机抽出下一个。温度会改变这些机会（低温更稳妥，高温更大胆）；top-k 只保留最可能的 k 个词元。种子固定随机抽取，所以每块屏幕上的续写都一样。',
      );
  }
}
