import { describe, expect, it } from 'vitest';
import { getProtocol, listProtocols } from '../../../src/lib/core/protocols/mc-protocols.ts';
import { sha256Hex, templateHash, templateText } from '../../../src/lib/core/protocols/template-hash.ts';

// Pinned: a change to any template string or prompt rule changes these. When that is intended, bump
// the protocol's version and update the hash here; results under the old hash stop comparing equal.
const PINNED: Record<string, string> = {
  cmmlu: '19ad2a096b1e7a467891122310bb5fe4367915c23f14812da36dbe0759c5a03b',
  aclue: '4d3e72ab04252d9b4f76580c9e3550b19000328e7b535efce05fa92a58430ad8',
  ancientbench: 'e81a33660c160baef25d770ddcc12411d29174f014b41a5eb1ac9916054c1a56',
  'wenmind-mc': '503926be27bb3deb130da065e3542c0eb859cd3687a39871bff405258cbb96f2',
  'ac-eval': 'e738ce4a1cded51b8df8a34e756cfdc2604752389cdf68043acc60ce4d13e506',
};

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vectors', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes UTF-8 bytes', async () => {
    // printf '答案是：' | sha256sum
    expect(await sha256Hex('答案是：')).toBe('4cc6dcc94d45d544c4843054a9e5de41a5d32c8d91ebdb0753da336c0f211006');
  });
});

describe('templateHash', () => {
  it('is pinned for every protocol', async () => {
    const hashes = Object.fromEntries(await Promise.all(listProtocols().map(async (p) => [p.id, await templateHash(p)] as const)));
    expect(hashes).toEqual(PINNED);
  });

  it('changes with any template string, and with the id', async () => {
    const cmmlu = getProtocol('cmmlu');
    const base = await templateHash(cmmlu);
    expect(await templateHash({ ...cmmlu, answerCue: '答案：' })).not.toBe(base);
    expect(await templateHash({ ...cmmlu, exemplarSeparator: '\n' })).not.toBe(base);
    expect(await templateHash({ ...cmmlu, instruction: cmmlu.instruction.replace('\n\n', '\n') })).not.toBe(base);
    expect(await templateHash({ ...cmmlu, shotsByTask: { ancient_chinese: 3 } })).not.toBe(base);
    expect(await templateHash({ ...cmmlu, title: 'another title', source: 'elsewhere' })).toBe(base);
  });

  it('writes strings with their escapes visible', () => {
    const text = templateText(getProtocol('ac-eval'));
    expect(text).toContain('answer cue: "答案："');
    expect(text).toContain('exemplar: "示例{n}：{question}\\n{options}\\n"');
    expect(text).toContain('shots by task: poetry_appreciation=3,sentence_pauses=3,summarization_and_analysis=1,translation=3');
    expect(templateText(getProtocol('cmmlu'))).toContain('few-shot instruction: null');
  });
});
