/// Chinese characters with more than one common Mandarin reading, where the
/// one ICU gives (a character's first in Unihan) is often not the one a name
/// means: 长城 is "changcheng", 音乐 "yinyue", 银行 "yinhang", 西藏 "xizang".
/// A name gets its reading with each of them read the other ways too, so
/// that either spelling finds it.
enum ChinesePolyphones {
  /// The readings of each, without tones.
  static let readings: [Unicode.Scalar: [String]] = [
    "长": ["chang", "zhang"], "長": ["chang", "zhang"], "乐": ["yue", "le"], "樂": ["yue", "le"],
    "行": ["xing", "hang"], "重": ["zhong", "chong"], "还": ["hai", "huan"], "還": ["hai", "huan"],
    "了": ["le", "liao"], "都": ["dou", "du"], "得": ["de", "dei"], "地": ["di", "de"],
    "的": ["de", "di"], "会": ["hui", "kuai"], "會": ["hui", "kuai"], "着": ["zhe", "zhao", "zhuo"],
    "觉": ["jue", "jiao"], "覺": ["jue", "jiao"], "差": ["cha", "chai"], "朝": ["chao", "zhao"],
    "传": ["chuan", "zhuan"], "傳": ["chuan", "zhuan"], "单": ["dan", "shan", "chan"],
    "單": ["dan", "shan", "chan"], "调": ["diao", "tiao"], "調": ["diao", "tiao"],
    "奇": ["qi", "ji"], "藏": ["cang", "zang"], "率": ["lu", "shuai"], "便": ["bian", "pian"],
    "省": ["sheng", "xing"], "曾": ["ceng", "zeng"], "数": ["shu", "shuo"], "數": ["shu", "shuo"],
    "种": ["zhong", "chong"], "種": ["zhong", "chong"], "系": ["xi", "ji"], "角": ["jiao", "jue"],
    "解": ["jie", "xie"], "降": ["jiang", "xiang"], "薄": ["bo", "bao"], "给": ["gei", "ji"],
    "給": ["gei", "ji"], "血": ["xue", "xie"], "干": ["gan", "qian"], "乾": ["gan", "qian"],
    "参": ["can", "shen"], "參": ["can", "shen"], "盛": ["sheng", "cheng"], "区": ["qu", "ou"],
    "區": ["qu", "ou"], "没": ["mei", "mo"], "提": ["ti", "di"], "卡": ["ka", "qia"],
    "期": ["qi", "ji"], "校": ["xiao", "jiao"], "弹": ["dan", "tan"], "彈": ["dan", "tan"],
    "露": ["lu", "lou"], "模": ["mo", "mu"], "似": ["si", "shi"], "厦": ["xia", "sha"],
    "廈": ["xia", "sha"], "处": ["chu"], "處": ["chu"], "将": ["jiang"], "將": ["jiang"],
    "相": ["xiang"], "量": ["liang"], "教": ["jiao"], "空": ["kong"], "看": ["kan"],
  ]

  /// A run's syllables (one for each of its characters, as ICU read them)
  /// with its polyphones read the other ways: each alone, then all at once,
  /// at most `limit` readings; none when the syllables are not one a
  /// character.
  static func variants(of run: String, syllables: [Substring], limit: Int = 3) -> [[Substring]] {
    let characters = Array(run.unicodeScalars)
    guard characters.count == syllables.count else { return [] }
    var variants: [[Substring]] = []
    var allOthers = syllables
    for (index, character) in characters.enumerated() {
      guard let readings = readings[character] else { continue }
      for reading in readings where reading != syllables[index] && variants.count < limit {
        var variant = syllables
        variant[index] = Substring(reading)
        variants.append(variant)
        if allOthers[index] == syllables[index] { allOthers[index] = Substring(reading) }
      }
    }
    if variants.count > 1 && variants.count < limit && !variants.contains(allOthers) {
      variants.append(allOthers)
    }
    return variants
  }
}
