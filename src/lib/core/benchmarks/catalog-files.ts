// The upstream files each catalog dataset downloads, pinned by sha256 and size at the catalog's
// commit, as [original path, sha256, bytes]. Computed from byte-identical copies of the upstream files;
// test/unit/benchmarks/pinned-files.test.ts checks every entry against the shared copies.
// AC-EVAL's subject_mapping.json is not downloaded: its content lives in catalog-tasks.ts as code.

export type PinnedFile = readonly [path: string, sha256: string, bytes: number];

export const ACLUE_FILES: readonly PinnedFile[] = [
  ['data/dev/医古文.csv', '1e5611dca55229fb28b2dd751803463f53d4811f57045630ad82762133a1e7c4', 503],
  ['data/dev/古代文学知识.csv', 'a2d467041626e3ac13824e8d55bf3086d1e61838d8be75f67755c9bd92b809e8', 569],
  ['data/dev/古文单字多义.csv', '6f4f1da28e6867b451669461c2140de94a97de0ce50934a050a449aa2d29ccdd', 1384],
  ['data/dev/古文断句.csv', 'e04f4c581a9b75952955cb4cbed6cf03c8973881b532a342f93df97726ba2ed5', 2870],
  ['data/dev/古文阅读理解.csv', 'cc268b7c45ba299efedd51d2b99597ccec02fc86727c0cc4b0ea3bf8f886c0af', 12760],
  ['data/dev/古汉语命名体识别.csv', '6693e6a00d29b97745b7ba52850fbf931d1f18d231f1f54285de11513d6ccebd', 2305],
  ['data/dev/古汉语知识.csv', '38e015a9be6a9dbac399c43657a88beae137210d75ad424e560f6a5ccd4ec5f3', 1042],
  ['data/dev/古诗词上下句预测.csv', '02a9c443b051daf93af9839057bfcccc19fb58549d9e6ee81070ebb4b4f92673', 1220],
  ['data/dev/古诗词曲鉴赏.csv', 'b67721c544bb59da4000edf7e2840138b5305da3456d24a81d1b7a2076b1cb9b', 3288],
  ['data/dev/古诗词质量评估.csv', 'effada4ca8ed633f2ddc414f3cc6f217104b0d7f659b4e8d93f6e599e7ceb3ce', 1718],
  ['data/dev/古音学.csv', '5d336350b9c04369c67c5983cbe9a864a3ff2756e204265e8520ac47c91858e6', 690],
  ['data/dev/国学常识.csv', '5f24d6b50432e8782df558d6c855e444fa066b6525af9d515e217e25363e9bf2', 910],
  ['data/dev/对联.csv', '1e03f94eb003d0b50e056f781c997ec86ad5940cb4f8c7557c1bed293529fe13', 1049],
  ['data/dev/诗词情感分类.csv', '9cc1d2a53bd2c53a3189cf873a4962365871df8dee3799548159f83d45b58f40', 871],
  ['data/dev/通假字.csv', '92b7545ff9065be7473452bda4992fce87e21c9a811c9f15aae7d911e2968039', 1402],
  ['data/test/医古文.csv', '572776bfb7cec46cb265a0d6764ab8ab63776e0d664c14f75a1581787135ed6b', 24914],
  ['data/test/古代文学知识.csv', '326e54eb293a0999f02f685ba25f469c059a77a317cc4d1ed70f66871ca17501', 21840],
  ['data/test/古文单字多义.csv', '1f5954685b7da28fbd324df75f72432c8fa6986d5f6624c3d74391d3050da770', 169369],
  ['data/test/古文断句.csv', 'd9a33e54e26de22b2f5f6a7ce92732a6413c4544988e828f500aeb41a61cec67', 288524],
  ['data/test/古文阅读理解.csv', 'f67ce93af531874a41252993beb4c3440f4f5303c6a8b249c7e92f471a5a0b80', 294832],
  ['data/test/古汉语命名体识别.csv', 'ebba2da24d361207241be0a19728cdddf2a8fa67c9c09f30c21bb1fc1fd608a3', 193468],
  ['data/test/古汉语知识.csv', 'f4b7bca0509f2fa9d77b74504807e97012d1d4973e0d49f640da3eb2c8c91fec', 39798],
  ['data/test/古诗词上下句预测.csv', 'f6642e76e429400f13a605b05290baeea3383ae2a7abd7edf79ba4443989d0e4', 119722],
  ['data/test/古诗词曲鉴赏.csv', '3c7da8acdc3fd08d6c24af2bbe08ea0e9877e9feeb16811935e1650c93bd1701', 79291],
  ['data/test/古诗词质量评估.csv', 'aa79c9ae4280722081fcc4330700142cb1ed0ee220ba8c7b2d1892d13677dc08', 137125],
  ['data/test/古音学.csv', '812bc20abdb9f51020bfd6de92b2cbbb818c3a534a40bdb1f0b3a669c49ec3ce', 15152],
  ['data/test/国学常识.csv', 'b433e69d4c8e397859177b4fea81d9c768582389c206b65d1edccb32f5bf1f39', 24787],
  ['data/test/对联.csv', '7cd9c33e4b58ccd363cf40922ad919fb58dc286c14e23e6549fd2f9e017ceaf9', 93325],
  ['data/test/诗词情感分类.csv', '3182f45407e32e7b3380de464406b0e7374422da80095e49c8f9212be5c3aa3a', 86242],
  ['data/test/通假字.csv', '56200ab8da045cc6eb0a4a255e1d70ecdf2b82bb7b9eff8dd98fe2b1e1d1259b', 195060],
];

export const CMMLU_ANCIENT_FILES: readonly PinnedFile[] = [
  ['data/dev/ancient_chinese.csv', '646d4a02d4998f176c111091e5fc23d12ce457ffbd8d2b500d33df06421a2231', 700],
  ['data/test/ancient_chinese.csv', '0668734669ce0bd646a21e71050e8821c0526cbf0d1707cc707f3d63a7e59883', 27090],
];

export const AC_EVAL_FILES: readonly PinnedFile[] = [
  ['data/dev/allusions_and_idioms.csv', '7986ba00d21a65e208effa7c87005bfbf91d93361af0cb365ece1bb48c1286b2', 3197],
  ['data/dev/art_and_cultural_heritage.csv', 'e32e29d9b191c892f8578db407459ebe4939e0e53bc3ff1da79d6cc03cfe30bc', 1415],
  ['data/dev/event_extraction.csv', '72f55c36a47da90a3de9be5fdf8a71e5c8a45cbc5be2971ccdb1866ba8b4a64b', 3906],
  ['data/dev/geography.csv', 'd86ceb40700a97b88e68b5e5e2e44a24212f3bbbea64534970d4017e44c3a575', 1071],
  ['data/dev/historical_facts.csv', 'e930df0aeca8c2062214a08f1fd61bd90f8589a396ca32d0368dd520a1e6d235', 5106],
  ['data/dev/lexical_pragmatics_analysis.csv', 'd00703f3bdb7b716696a30847eac81c59ac122b9e22ce3a10a6a90d1fa829788', 2158],
  ['data/dev/philosophy_and_religion.csv', 'de7224f664aa6def53bae958154dd1aa025ee5db5ba097893b88371f15a061ed', 1961],
  ['data/dev/poetry_appreciation.csv', '6eb0705923271e2c7bd3a7f7962847093d9c73844c4755e3a1deaf83baf8094d', 7237],
  ['data/dev/sentence_pauses.csv', '7f81f3db6f43e67ae85c48514e1750ef029131e1dc8e48c5e729eef85a63be38', 10220],
  ['data/dev/social_customs.csv', '8bef62f27b91f1c29d83ee1a1bd9c4c884de2ec6b955e15f9fe2ff0964887eb7', 1762],
  ['data/dev/summarization_and_analysis.csv', '56ddde1bf09e50381fbb983e55d7f717e7aa5268397906130b5d481d879679d4', 17944],
  ['data/dev/translation.csv', '20463fc6748e3f0c6dc60a492a139ce8e4d9b0dee72ec3063e1b0b70dcef4773', 5938],
  ['data/dev/word_sense_disambiguation.csv', '407347cae85a268012c5892c41f351b6582eeb3e0db1926efabc5ad41b6e41aa', 3458],
  ['data/test/allusions_and_idioms.csv', 'c046babd05dc34e48731ecf0a6c6e3e2af79075618e955b6a2fe234f0d12a213', 106799],
  ['data/test/art_and_cultural_heritage.csv', '2e064c14440f7541254dd15391e4b52ab16037032a27504752979653e1e670e8', 22053],
  ['data/test/event_extraction.csv', 'e106f46d75b33026ccec550bee2191851cf2f2b8d2bfaed71a08faf510823a04', 132852],
  ['data/test/geography.csv', 'c1b828bf82d9f28f7e16a3a67e99cf042694ddfb4202e3476931449676cf5086', 21466],
  ['data/test/historical_facts.csv', '70f3f71791eb9a71fa3742d016f4b96b2b3ecde61ff04cfe324b86b0441257c7', 94595],
  ['data/test/lexical_pragmatics_analysis.csv', '42e00d375f7b7639136f69701ac59c247fba051f9fe986baaad9e2f03f328d31', 37728],
  ['data/test/philosophy_and_religion.csv', 'bd53ccf2670355a92ed2f133a575b8e383d42cb165ba4f8fba3ac7cd1e58ff5e', 24181],
  ['data/test/poetry_appreciation.csv', 'c37c1f26bc040d2fddf8f1ec0f78a6f0f6c8822ec11b0ceafbd6e61ef6287b8b', 201723],
  ['data/test/sentence_pauses.csv', '2c8cb7361087b611a6852518541d3b5ca5ed2e7743392dcbaf4eab9ad02a06c1', 226809],
  ['data/test/social_customs.csv', 'c9b300996827fef4a6bb6c00fd020e339faa6287648bbb5a8f83f5617d77e5b5', 30807],
  ['data/test/summarization_and_analysis.csv', '042685b93728cce994c8176c9b72c87626ee62b4caf01ec1438793d015699bac', 1580459],
  ['data/test/translation.csv', '7df2fdb40aae1537736b82ccf40237b2ed94f05752a82bdddf001cdb4a41e275', 239390],
  ['data/test/word_sense_disambiguation.csv', '018f506495b1479d73671270c14a9f9dc5c600944ecc3cb3629a46caaccd8ca7', 191639],
];

export const WENMIND_FILES: readonly PinnedFile[] = [
  ['WenMind_Benchmark/WenMind_ver1.json', 'e7bd11a0c5efe96dd1255bdc468fbd44fdbd4b4a79eef30b2a4064b1e1447b47', 3765207],
];
