import LimelightModel

/// What a word of a person's query means to ``PhraseReader``, besides the
/// calendar words ICU gives (``CalendarWords``).
enum WordMeaning: Equatable, Sendable {
  /// A kind of file ("photos", "Tabellen").
  case kind(KindClass)
  /// "files", "Dateien": says nothing more than the kind before it.
  case files
  /// The date a phrase's dates are of: "created", "taken".
  case dateField(DateField)
  case since, before, after, between, from, until, during, and
  /// "last", "past", "letzten": the most recent span or count of spans.
  case last
  /// "few", "paar": a few (three).
  case few
  /// "day", "weeks": a unit a count or "last" applies to.
  case unit(CalendarWords.Unit)
  case big, huge, small, tiny
  /// "over", "larger than": a size follows.
  case larger, smaller
  /// "by NAME": the author or artist.
  case by
  /// "to NAME": the recipient (of an e-mail).
  case to
  /// A word that carries no meaning of its own ("how", "the", "about").
  case function
}

/// The date a phrase's dates compare, named by its verb.
enum DateField: String, Sendable {
  /// Changed, edited, saved: the default.
  case modified
  /// Created, made.
  case created
  /// Opened, used.
  case used
  /// A photo's own date (created for other items).
  case taken
}

/// The words of each language the reader knows that ICU has no data for:
/// kinds, the verbs that choose a date, prepositions, sizes and words
/// that carry no meaning. A language is its table: adding one is data.
/// Words are folded as queries are (lower case, no accents); a phrase is
/// its words separated by spaces.
enum LanguageWords {
  /// The meanings of every language at once, by folded phrase: a word may
  /// mean several things ("to" is a recipient, the end of a range, or
  /// nothing), and the reader takes the one its context needs.
  static let all: [String: [WordMeaning]] = {
    var table: [String: [WordMeaning]] = [:]
    for (_, language) in tables {
      for (meaning, words) in language {
        for word in words {
          let key = PhraseReader.fold(word)
          if !(table[key] ?? []).contains(meaning) { table[key, default: []].append(meaning) }
        }
      }
    }
    return table
  }()

  /// Each language's table, by its ICU code.
  static let tables = [
    ("en", english), ("de", german), ("fr", french), ("es", spanish), ("ja", japanese),
    ("zh", chinese),
  ]

  /// The languages a folded phrase means a kind in.
  static let kindLanguages = languagesMeaning(
    key: PhraseReader.fold, { if case .kind = $0 { true } else { false } })
  /// The languages a word carries no meaning in ("the", "wie", "de"), by
  /// the word in lower case, its accents kept: French "à" is no English "a".
  static let functionLanguages = languagesMeaning(key: { $0.lowercased() }, { $0 == .function })

  /// The languages each phrase (as `key` makes it) has a meaning
  /// `matching` in.
  private static func languagesMeaning(
    key: (String) -> String, _ matching: (WordMeaning) -> Bool
  ) -> [String: Set<String>] {
    var found: [String: Set<String>] = [:]
    for (code, language) in tables {
      for (meaning, words) in language where matching(meaning) {
        for word in words { found[key(word), default: []].insert(code) }
      }
    }
    return found
  }

  /// Whether a word of the languages `named` is of none of a query's
  /// `languages` (known from its words that carry no meaning; none known:
  /// any language may be the query's).
  static func isForeign(_ named: Set<String>?, to languages: Set<String>) -> Bool {
    guard let named, !languages.isEmpty else { return false }
    return named.isDisjoint(with: languages)
  }

  /// "From" with an article in it ("vom Strand", "du bureau", "del
  /// núcleo"): a thing follows, not a person (German writes every noun
  /// with a capital).
  static let fromTheArticle: Set<String> = ["vom", "du", "del"]

  /// English's articles: an article, a kind word and a noun are a compound
  /// ("the directory tree"), not a kind.
  static let articles: Set<String> = ["a", "an", "the"]

  /// The longest phrase of the table, in words.
  static let longestPhrase =
    all.keys.map { $0.utf8.count { $0 == UInt8(ascii: " ") } + 1 }.max() ?? 1

  /// Named days ICU gives as a number in a language ("2 days ago").
  static let namedSpans: [(String, CalendarWords.Unit, Int)] = [
    ("day before yesterday", .day, -2), ("the day before yesterday", .day, -2),
  ]

  /// The languages read, by their ICU code.
  static let languages = tables.map(\.0)

  static let english: [(WordMeaning, [String])] = [
    (.kind(.pdf), ["pdf", "pdfs"]),
    (
      .kind(.image),
      [
        "photo", "photos", "picture", "pictures", "pic", "pics", "image", "images", "screenshot",
        "screenshots",
      ]
    ),
    (.kind(.video), ["video", "videos", "movie", "movies"]),
    (.kind(.audio), ["song", "songs", "music", "audio"]),
    (.kind(.document), ["document", "documents", "doc", "docs"]),
    (.kind(.text), ["text", "texts"]),
    (.kind(.spreadsheet), ["spreadsheet", "spreadsheets", "workbook", "workbooks"]),
    (.kind(.presentation), ["presentation", "presentations", "slides"]),
    (.kind(.email), ["email", "emails", "e-mail", "e-mails", "mail", "mails"]),
    (.kind(.archive), ["archive", "archives", "zip", "zips"]),
    (.kind(.code), ["code", "source", "sources"]),
    (.kind(.folder), ["folder", "folders", "directory", "directories"]),
    (.kind(.app), ["app", "apps", "application", "applications"]),
    (.files, ["file", "files"]),
    (.dateField(.modified), ["modified", "changed", "edited", "saved", "updated", "worked on"]),
    (.dateField(.created), ["created", "made", "written", "added"]),
    (.dateField(.used), ["opened", "used", "viewed", "read"]),
    (.dateField(.taken), ["taken", "shot", "photographed"]),
    (.since, ["since"]),
    (.before, ["before", "until", "older than"]),
    (.after, ["after", "newer than"]),
    (.between, ["between"]),
    (.from, ["from"]),
    (.until, ["to", "till", "through", "-"]),
    (.during, ["in", "on", "during", "of"]),
    (.and, ["and", "or"]),
    (.last, ["last", "past", "previous", "recent"]),
    (.few, ["few", "couple", "several"]),
    (.unit(.day), ["day", "days"]),
    (.unit(.week), ["week", "weeks"]),
    (.unit(.month), ["month", "months"]),
    (.unit(.year), ["year", "years"]),
    (.big, ["big", "large", "larger", "bigger", "largest", "biggest"]),
    (.huge, ["huge", "enormous", "giant"]),
    (.small, ["small", "smaller", "smallest", "little"]),
    (.tiny, ["tiny"]),
    (.larger, ["over", "above", "more than", "larger than", "bigger than", "greater than"]),
    (.smaller, ["under", "below", "less than", "smaller than"]),
    (.by, ["by", "author"]),
    (.to, ["to"]),
    (
      .function,
      [
        "a", "an", "the", "how", "what", "which", "who", "where", "when", "why", "do", "does",
        "did", "is", "are", "was", "were", "be", "i", "me", "my", "we", "our", "you", "your",
        "it", "its", "that", "this", "these", "those", "about", "for", "with", "at", "into",
        "find", "show", "search", "get", "all", "any", "some", "can", "could", "should",
        "there", "here", "ago", "use", "using", "they", "them", "their", "he", "she", "his", "her",
        "him", "us", "if", "so",
      ]
    ),
  ]

  static let german: [(WordMeaning, [String])] = [
    (.kind(.pdf), ["pdf", "pdfs"]),
    (
      .kind(.image),
      ["foto", "fotos", "bild", "bilder", "photo", "photos", "bildschirmfoto", "bildschirmfotos"]
    ),
    (.kind(.video), ["video", "videos", "film", "filme"]),
    (.kind(.audio), ["lied", "lieder", "musik", "song", "songs", "aufnahme", "aufnahmen"]),
    (.kind(.document), ["dokument", "dokumente", "dokumenten"]),
    (.kind(.text), ["text", "texte"]),
    (.kind(.spreadsheet), ["tabelle", "tabellen"]),
    (.kind(.presentation), ["präsentation", "präsentationen", "folien", "folie"]),
    (.kind(.email), ["e-mail", "e-mails", "email", "emails", "mail", "mails"]),
    (.kind(.archive), ["archiv", "archive"]),
    (.kind(.code), ["quelltext", "quellcode", "code"]),
    (.kind(.folder), ["ordner", "verzeichnis", "verzeichnisse"]),
    (.kind(.app), ["app", "apps", "programm", "programme", "anwendung", "anwendungen"]),
    (.files, ["datei", "dateien"]),
    (.dateField(.modified), ["geändert", "bearbeitet", "gespeichert"]),
    (.dateField(.created), ["erstellt", "angelegt", "gemacht"]),
    (.dateField(.used), ["geöffnet", "benutzt", "verwendet", "gelesen"]),
    (.dateField(.taken), ["aufgenommen", "fotografiert"]),
    (.since, ["seit"]),
    (.before, ["vor", "bis vor"]),
    (.after, ["nach"]),
    (.between, ["zwischen"]),
    (.from, ["von", "vom", "ab"]),
    (.until, ["bis", "zum"]),
    (.during, ["im", "am", "in", "aus"]),
    (.and, ["und"]),
    (
      .last,
      ["letzte", "letzten", "letzter", "letztes", "vergangene", "vergangenen", "vorigen", "vorige"]
    ),
    (.few, ["paar", "einige", "wenigen"]),
    (.unit(.day), ["tag", "tage", "tagen"]),
    (.unit(.week), ["woche", "wochen"]),
    (.unit(.month), ["monat", "monate", "monaten"]),
    (.unit(.year), ["jahr", "jahre", "jahren"]),
    (.big, ["groß", "große", "großen", "grosse", "grossen"]),
    (.huge, ["riesig", "riesige", "riesigen"]),
    (.small, ["klein", "kleine", "kleinen"]),
    (.tiny, ["winzig", "winzige", "winzigen"]),
    (.larger, ["über", "größer als", "mehr als"]),
    (.smaller, ["unter", "kleiner als", "weniger als"]),
    (.to, ["an"]),
    (
      .function,
      [
        "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "wie", "was",
        "wo", "wer", "ich", "mein", "meine", "meinen", "über", "zu", "zur", "mit", "für", "und",
        "oder", "ist", "sind", "habe", "hat", "alle", "finde", "zeige",
      ]
    ),
  ]

  static let french: [(WordMeaning, [String])] = [
    (.kind(.pdf), ["pdf", "pdfs"]),
    (.kind(.image), ["photo", "photos", "image", "images", "capture", "captures"]),
    (.kind(.video), ["vidéo", "vidéos", "film", "films"]),
    (.kind(.audio), ["chanson", "chansons", "musique", "morceau", "morceaux", "audio"]),
    (.kind(.document), ["document", "documents"]),
    (.kind(.text), ["texte", "textes"]),
    (
      .kind(.spreadsheet),
      ["tableur", "tableurs", "classeur", "classeurs", "feuille de calcul", "feuilles de calcul"]
    ),
    (.kind(.presentation), ["présentation", "présentations", "diapositives", "diaporama"]),
    (
      .kind(.email),
      ["courriel", "courriels", "e-mail", "e-mails", "email", "emails", "mail", "mails"]
    ),
    (.kind(.archive), ["archive", "archives"]),
    (.kind(.code), ["code", "source", "sources"]),
    (.kind(.folder), ["dossier", "dossiers", "répertoire", "répertoires"]),
    (.kind(.app), ["application", "applications", "appli", "applis", "programme", "programmes"]),
    (.files, ["fichier", "fichiers"]),
    (
      .dateField(.modified),
      ["modifié", "modifiés", "modifiée", "modifiées", "enregistré", "enregistrés"]
    ),
    (.dateField(.created), ["créé", "créés", "créée", "créées"]),
    (.dateField(.used), ["ouvert", "ouverts", "ouverte", "ouvertes", "utilisé", "utilisés"]),
    (.dateField(.taken), ["prise", "prises", "pris"]),
    (.since, ["depuis"]),
    (.before, ["avant"]),
    (.after, ["après"]),
    (.between, ["entre"]),
    (.from, ["du", "de", "d", "à partir de"]),
    (.until, ["au", "à", "jusqu'au", "jusqu'à"]),
    (.during, ["en", "le", "la", "dans", "pendant"]),
    (.and, ["et"]),
    (
      .last,
      ["dernier", "dernière", "derniers", "dernières", "passé", "passée", "passés", "passées"]
    ),
    (.few, ["quelques"]),
    (.unit(.day), ["jour", "jours"]),
    (.unit(.week), ["semaine", "semaines"]),
    (.unit(.month), ["mois"]),
    (.unit(.year), ["an", "ans", "année", "années"]),
    (.big, ["gros", "grosse", "grosses", "grand", "grande", "grands", "grandes", "volumineux"]),
    (.huge, ["énorme", "énormes"]),
    (.small, ["petit", "petite", "petits", "petites"]),
    (.tiny, ["minuscule", "minuscules"]),
    (.larger, ["plus de", "plus grand que", "plus gros que", "au-dessus de"]),
    (.smaller, ["moins de", "plus petit que", "au-dessous de"]),
    (.by, ["par"]),
    (.to, ["à"]),
    (
      .function,
      [
        "le", "la", "les", "l", "un", "une", "des", "de", "d", "du", "comment", "quoi", "que",
        "qui", "où", "mon", "ma", "mes", "sur", "pour", "avec", "et", "ou", "est", "sont",
        "tous", "toutes", "trouver", "utiliser", "à propos",
      ]
    ),
  ]

  static let spanish: [(WordMeaning, [String])] = [
    (.kind(.pdf), ["pdf", "pdfs"]),
    (.kind(.image), ["foto", "fotos", "imagen", "imágenes", "captura", "capturas"]),
    (.kind(.video), ["vídeo", "vídeos", "video", "videos", "película", "películas"]),
    (
      .kind(.audio),
      ["canción", "canciones", "música", "audio", "audios", "grabación", "grabaciones"]
    ),
    (.kind(.document), ["documento", "documentos"]),
    (.kind(.text), ["texto", "textos"]),
    (.kind(.spreadsheet), ["hoja de cálculo", "hojas de cálculo", "planilla", "planillas"]),
    (.kind(.presentation), ["presentación", "presentaciones", "diapositivas"]),
    (
      .kind(.email),
      [
        "correo", "correos", "correo electrónico", "correos electrónicos", "e-mail", "e-mails",
        "email", "emails",
      ]
    ),
    (.kind(.archive), ["archivo comprimido", "archivos comprimidos", "zip"]),
    (.kind(.code), ["código", "fuente", "fuentes"]),
    (.kind(.folder), ["carpeta", "carpetas", "directorio", "directorios"]),
    (.kind(.app), ["aplicación", "aplicaciones", "programa", "programas"]),
    (.files, ["archivo", "archivos", "fichero", "ficheros"]),
    (
      .dateField(.modified),
      [
        "modificado", "modificados", "modificada", "modificadas", "editado", "editados", "guardado",
        "guardados",
      ]
    ),
    (.dateField(.created), ["creado", "creados", "creada", "creadas", "hecho", "hechos"]),
    (.dateField(.used), ["abierto", "abiertos", "abierta", "abiertas", "usado", "usados"]),
    (.dateField(.taken), ["tomada", "tomadas", "tomado", "tomados", "sacada", "sacadas"]),
    (.since, ["desde"]),
    (.before, ["antes de", "antes del", "antes"]),
    (.after, ["después de", "después del", "después"]),
    (.between, ["entre"]),
    (.from, ["de", "del", "a partir de"]),
    (.until, ["a", "al", "hasta", "hasta el"]),
    (.during, ["en", "el", "la", "durante"]),
    (.and, ["y"]),
    (.last, ["pasado", "pasada", "pasados", "pasadas", "último", "última", "últimos", "últimas"]),
    (.few, ["unos", "unas", "pocos", "pocas", "algunos", "algunas"]),
    (.unit(.day), ["día", "días"]),
    (.unit(.week), ["semana", "semanas"]),
    (.unit(.month), ["mes", "meses"]),
    (.unit(.year), ["año", "años"]),
    (.big, ["grande", "grandes"]),
    (.huge, ["enorme", "enormes"]),
    (.small, ["pequeño", "pequeña", "pequeños", "pequeñas"]),
    (.tiny, ["diminuto", "diminutos", "minúsculo", "minúsculos"]),
    (.larger, ["más de", "mayor que", "mayores que", "más grande que"]),
    (.smaller, ["menos de", "menor que", "menores que", "más pequeño que"]),
    (.by, ["por"]),
    (.to, ["para"]),
    (
      .function,
      [
        "el", "la", "los", "las", "un", "una", "unos", "unas", "de", "del", "cómo", "como",
        "qué", "que", "quién", "dónde", "mi", "mis", "sobre", "para", "con", "y", "o", "es",
        "son", "todos", "todas", "usar", "buscar",
      ]
    ),
  ]

  static let japanese: [(WordMeaning, [String])] = [
    (.kind(.pdf), ["pdf"]),
    (.kind(.image), ["写真", "画像", "スクリーンショット", "スクショ", "フォト"]),
    (.kind(.video), ["動画", "ビデオ", "映画"]),
    (.kind(.audio), ["音楽", "音声", "楽曲"]),
    (.kind(.document), ["文書", "ドキュメント"]),
    (.kind(.text), ["テキスト", "メモ"]),
    (.kind(.spreadsheet), ["表計算", "スプレッドシート"]),
    (.kind(.presentation), ["プレゼン", "プレゼンテーション", "スライド"]),
    (.kind(.email), ["メール", "電子メール"]),
    (.kind(.archive), ["アーカイブ", "圧縮ファイル"]),
    (.kind(.code), ["コード", "ソースコード", "ソース"]),
    (.kind(.folder), ["フォルダ", "フォルダー", "ディレクトリ"]),
    (.kind(.app), ["アプリ", "アプリケーション"]),
    (.files, ["ファイル"]),
    (.dateField(.modified), ["変更した", "編集した", "保存した", "更新した"]),
    (.dateField(.created), ["作成した", "作った"]),
    (.dateField(.used), ["開いた", "使った"]),
    (.dateField(.taken), ["撮った", "撮影した"]),
    (.since, ["以降", "から"]),
    (.before, ["以前", "より前"]),
    (.until, ["まで"]),
    (.last, ["過去", "最近"]),
    (.unit(.day), ["日間", "日"]),
    (.unit(.week), ["週間"]),
    (.unit(.month), ["か月", "ヶ月", "カ月"]),
    (.unit(.year), ["年間"]),
    (.big, ["大きい", "大きな"]),
    (.huge, ["巨大な"]),
    (.small, ["小さい", "小さな"]),
    (.function, ["の", "を", "に", "で", "は", "が", "と", "へ", "や", "について", "方法", "使い方"]),
  ]

  static let chinese: [(WordMeaning, [String])] = [
    (.kind(.pdf), ["pdf"]),
    (.kind(.image), ["照片", "图片", "相片", "截图", "图像"]),
    (.kind(.video), ["视频", "电影", "影片"]),
    (.kind(.audio), ["歌曲", "音乐", "音频", "录音"]),
    (.kind(.document), ["文档"]),
    (.kind(.text), ["文本", "笔记"]),
    (.kind(.spreadsheet), ["电子表格", "表格"]),
    (.kind(.presentation), ["演示文稿", "幻灯片"]),
    (.kind(.email), ["邮件", "电子邮件"]),
    (.kind(.archive), ["压缩包", "压缩文件", "归档"]),
    (.kind(.code), ["代码", "源代码", "源码"]),
    (.kind(.folder), ["文件夹", "目录"]),
    (.kind(.app), ["应用", "应用程序", "程序"]),
    (.files, ["文件"]),
    (.dateField(.modified), ["修改的", "编辑的", "保存的", "修改"]),
    (.dateField(.created), ["创建的", "创建"]),
    (.dateField(.used), ["打开的", "打开过的", "用过的"]),
    (.dateField(.taken), ["拍的", "拍摄的"]),
    (.since, ["以来", "之后", "以后"]),
    (.before, ["之前", "以前"]),
    (.last, ["过去", "最近"]),
    (.unit(.day), ["天"]),
    (.unit(.week), ["周", "星期"]),
    (.unit(.month), ["个月"]),
    (.unit(.year), ["年"]),
    (.big, ["大的"]),
    (.huge, ["巨大的"]),
    (.small, ["小的"]),
    (.function, ["的", "了", "在", "和", "与", "关于", "如何", "怎么", "怎样", "使用", "我"]),
  ]
}
