# ruff: noqa: E501  (commands and tables)
"""Builds a second clean evaluation from human-written game narration, help text and literary quotes.

Sources (none of them used by the fiction or documentation evaluations), as shipped in Debian and read at
run time from the extracted packages; nothing is committed::

    mkdir -p /tmp/games && cd /tmp/games
    apt-get download widelands-data freeciv-data hedgewars-data fortunes fortunes-de fortunes-es \\
        fortunes-it fortunes-pl fortunes-ru fortunes-br fortunes-zh
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --root /tmp/games/root \\
        --out bench/results/games_replies.jsonl

- **widelands**: campaign and scenario narration, the tribes' encyclopedia, win conditions and map
  descriptions (``usr/share/games/widelands/data/locale/*/LC_MESSAGES/*.mo``; the interface, editor and
  console catalogues are left out);
- **freeciv**: the nations' legends and the rulesets' help text (``usr/share/locale/*/LC_MESSAGES/freeciv-{core,nations}.mo``);
- **hedgewars**: mission and campaign dialogue and descriptions (``Data/Locale/<lang>.lua``,
  ``missions_<lang>.txt``, ``campaigns_<lang>.txt``);
- **fortunes**: literary quotes, proverbs and anecdotes in en, de, es, it, pl, ru, pt-BR, and Tang and
  Song poetry and classical prose in Chinese (``usr/share/games/fortunes*``; entries separated by ``%``,
  coloured title lines and attribution lines dropped; a Chinese entry is zh-Hans or zh-Hant by which of GB 2312 and
  Big5 alone writes more of its characters; of the ``chinese`` file only the traditional entries, the
  Book of Songs and classical prose, are read: its simplified ones include the Debian Reference, which
  the documentation evaluation uses).

A second set of sources, role-play dialogue and quest text (``--set rpg``), makes a separate evaluation::

    mkdir -p /tmp/rpg && cd /tmp/rpg
    apt-get download flare-game freedroidrpg-data
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set rpg --root /tmp/rpg/root \\
        --out bench/results/rpg_replies.jsonl

- **flare**: the Empyrean campaign's NPC dialogue, quest log, item and power descriptions, and the core
  mod's (``usr/share/games/flare/mods/{empyrean_campaign,fantasycore}/languages/data.<lang>.po``, compiled
  with ``msgfmt``, which leaves fuzzy translations out);
- **freedroidrpg**: the characters' dialogue and the game's item and world text
  (``usr/share/locale/*/LC_MESSAGES/freedroidrpg-{dialogs,data}.mo``; the interface catalogue is left out).

A third set, narration, dialogue and lore of science-fiction and strategy games (``--set story``)::

    mkdir -p /tmp/story && cd /tmp/story
    apt-get download cataclysm-dda-data warzone2100-data naev-data singularity 0ad-data
    for deb in cataclysm-dda-data warzone2100-data naev-data singularity; do dpkg-deb -x "$deb"_*.deb root; done
    dpkg-deb --fsys-tarfile 0ad-data_*.deb | tar x -C root ./usr/share/games/0ad/mods/public/public.zip
    (cd root/usr/share/games/0ad/mods/public && unzip -q public.zip 'l10n/*' && rm public.zip)
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set story --root /tmp/story/root \
        --out bench/results/story_replies.jsonl

- **cataclysm**: Cataclysm: Dark Days Ahead's NPC dialogue, survivors' backstories, notes, books and
  item descriptions (``usr/share/locale/*/LC_MESSAGES/cataclysm-dda.mo``);
- **warzone2100**: the campaigns' briefings and messages (``warzone2100.mo``; its interface strings are
  not prose and fall out);
- **naev**: the space-trading game's mission and ship texts (``usr/share/naev/dat/gettext``: de, ko);
- **singularity**: Endgame: Singularity's story and research texts (``i18n/lang_*/{story,knowledge}.po``);
- **0ad**: 0 A.D.'s civilisation histories, campaign and map narration and unit histories
  (``l10n/<lang>.public-{civilizations,gui-campaigns,maps,templates-units}.po``).

A fifth set, dialogue and lore (``--set lore``)::

    mkdir -p /tmp/lore/root && cd /tmp/lore
    apt-get download freedink-data renpy-thequestion stellarium-data freeorion-data
    dpkg-deb --fsys-tarfile freedink-data_*.deb | tar x -C root --wildcards './usr/share/games/dink/dink/l10n/*.po'
    dpkg-deb --fsys-tarfile renpy-thequestion_*.deb | tar x -C root --wildcards '*/tl/*/script.rpy'
    dpkg-deb --fsys-tarfile stellarium-data_*.deb | tar x -C root --wildcards './usr/share/stellarium/skycultures/*/description*'
    dpkg-deb --fsys-tarfile freeorion-data_*.deb | tar x -C root ./usr/share/games/freeorion/default/stringtables
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set lore --root /tmp/lore/root \
        --out bench/results/lore_replies.jsonl

- **freedink**: Dink Smallwood's characters' lines (``usr/share/games/dink/dink/l10n/<lang>.po``; a line
  of ``DIALOGUE_CHARS`` letters is a message);
- **the_question**: the visual novel's narration and dialogue (``tl/<language>/script.rpy``: each
  translated line after the English one in a comment);
- **stellarium**: the sky cultures' descriptions, their legends and histories
  (``usr/share/stellarium/skycultures/*/description.<lang>.utf8``: HTML paragraphs, paired with the
  English page's by position, none from a page with another number of paragraphs);
- **freeorion**: the species' and space monsters' descriptions (``FREEORION_LORE`` keys of
  ``stringtables/<lang>.txt``, paragraphs paired by position).

A sixth set, dialogue, logbooks and descriptions (``--set tales``)::

    mkdir -p /tmp/tales/root && cd /tmp/tales
    apt-get download fillets-ng-data unknown-horizons crawl-common
    dpkg-deb --fsys-tarfile fillets-ng-data_*.deb | tar x -C root --wildcards './usr/share/games/fillets-ng/script/*/dialogs_*.lua'
    dpkg-deb --fsys-tarfile unknown-horizons_*.deb | tar x -C root --wildcards './usr/share/unknown-horizons/content/scenarios/The_Unknown_*.yaml'
    dpkg-deb --fsys-tarfile crawl-common_*.deb | tar x -C root ./usr/share/crawl/dat/descript
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set tales --root /tmp/tales/root \
        --out bench/results/tales_replies.jsonl

- **fillets**: Fish Fillets NG's dialogue, the two fish's and the other characters' lines, each level a
  domain (``usr/share/games/fillets-ng/script/<level>/dialogs_<lang>.lua``: ``dialogId`` with the English
  line, then ``dialogStr`` with the translation; a line of ``DIALOGUE_CHARS`` letters is a message);
- **unknown_horizons**: Unknown Horizons' scenario "The Unknown", the captain's logbook and the scenario's
  description (``content/scenarios/The_Unknown_<lang>.yaml``, paragraphs paired by position; the tasks'
  lists left out) — the tutorial is instructions, not narration;
- **crawl**: Dungeon Crawl Stone Soup's descriptions of monsters, unique artefacts, gods, species,
  backgrounds, branches, dungeon features, cards and items, and its literary quotes
  (``usr/share/crawl/dat/descript/[<lang>/]<kind>.txt``: entries between ``%%%%`` lines, each paired with
  the English entry of its name; an entry with Lua code or markup, and a quote's attribution and what
  follows it, left out; a line break inside a paragraph is a space, none between CJK characters; the
  ``zh`` directory is zh-Hans, and ``pt``, of no stated variant, is not read).

A seventh set, colonial and alien-war histories, reports and help (``--set colony``)::

    mkdir -p /tmp/colony/root && cd /tmp/colony
    apt-get download freecol ufoai-misc lincity-ng-data
    dpkg-deb --fsys-tarfile freecol_*.deb | tar x -C root ./usr/share/games/freecol/strings
    dpkg-deb --fsys-tarfile ufoai-misc_*.deb | tar x -C root ./usr/share/games/ufoai/base/i18n
    dpkg-deb --fsys-tarfile lincity-ng-data_*.deb | tar x -C root ./usr/share/games/lincity-ng/help
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set colony --root /tmp/colony/root \
        --out bench/results/colony_replies.jsonl

- **freecol**: FreeCol's founding fathers' histories, the Colopedia's units, buildings, goods and lands,
  and the game's messages and reports (``usr/share/games/freecol/strings/FreeColMessages_<lang>.properties``,
  paired with the English file by key; the options, menus, command line and errors left out);
- **ufoai**: UFO: Alien Invasion's UFOpaedia (research reports, autopsies, aircraft evaluations), campaign
  news and mission briefings (``usr/share/games/ufoai/base/i18n/<lang>/LC_MESSAGES/ufoai.mo``, shipped in
  ``ufoai-misc``: each long message's paragraphs paired by position, none from a translation with another
  number of paragraphs or with a paragraph left in English, ``untranslated``);
- **lincity**: LinCity-NG's help pages on the city's buildings, economy and society
  (``usr/share/games/lincity-ng/help/<lang>/*.xml``, paragraphs paired by position).

OpenTTD's language files (``openttd-data``) hold interface strings and news headlines with markup, no
narration: not read here (the tips set reads their settings' explanations).
A seventh set, level stories, mission briefings and scenario texts (``--set quest``)::

    mkdir -p /tmp/quest/root && cd /tmp/quest
    apt-get download pingus-data supertux-data colobot-common megaglest-data enigma-data
    dpkg-deb --fsys-tarfile pingus-data_*.deb | tar x -C root --wildcards './usr/share/games/pingus/data/po/*.po'
    dpkg-deb --fsys-tarfile supertux-data_*.deb | tar x -C root --wildcards './usr/share/games/supertux2/levels/*.po'
    dpkg-deb --fsys-tarfile colobot-common_*.deb | tar x -C root --wildcards './usr/share/games/colobot/levels/missions/*/help/help.*.txt'
    dpkg-deb --fsys-tarfile megaglest-data_*.deb | tar x -C root --wildcards './usr/share/games/megaglest/scenarios/*' './usr/share/games/megaglest/tutorials/*'
    dpkg-deb --fsys-tarfile enigma-data_*.deb | tar x -C root --wildcards './usr/share/games/enigma/levels/*.xml'
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set quest --root /tmp/quest/root \
        --out bench/results/quest_replies.jsonl

- **pingus**: Pingus' story and its levels' descriptions (``usr/share/games/pingus/data/po/<lang>.po``;
  its interface strings are not prose and fall out);
- **supertux**: SuperTux's story and the signs, scripts and info blocks of its worlds' levels
  (``usr/share/games/supertux2/levels/<world>/<lang>.po``, each world a domain; an info block's image lines
  and its markers, ``-`` heading and ``#`` text, taken off; a line of ``DIALOGUE_CHARS`` letters is a
  message);
- **colobot**: Colobot's mission briefings, from Mission Control and the characters
  (``usr/share/games/colobot/levels/missions/<chapter>/<level>/help/help.<letter>.txt``, the letter
  ``E`` English, ``F``, ``D``, ``P``, ``R``, ``B`` and ``C`` French, German, Polish, Russian, Brazilian
  Portuguese and Czech; paragraphs paired by position, a heading, a link's target and a paragraph with
  other markup, a key or a button left out);
- **megaglest**: MegaGlest's scenario and tutorial texts (``usr/share/games/megaglest/{scenarios,tutorials}/
  <name>/<name>_<language>.lng``, ``key=value`` lines paired by key; its in-game hints carry hotkey
  placeholders and fall out);
- **enigma**: the hints inside Enigma's levels (``usr/share/games/enigma/levels/<pack>/*.xml``: each
  ``el:string``'s English and its ``el:translation`` in German or French; a line of ``DIALOGUE_CHARS``
  letters is a message).

A ninth set, role-play dialogue, level hints and a visual novel's lines (``--set scroll``)::

    mkdir -p /tmp/scroll/root && cd /tmp/scroll
    apt-get download adonthell-data kgoldrunner renpy-demo
    dpkg-deb --fsys-tarfile adonthell-data_*.deb | tar x -C root --wildcards './usr/share/games/adonthell/games/wastesedge/locale/*'
    dpkg-deb --fsys-tarfile kgoldrunner_*.deb | tar x -C root --wildcards './usr/share/locale/*/LC_MESSAGES/kgoldrunner.mo'
    dpkg-deb --fsys-tarfile renpy-demo_*.deb | tar x -C root --wildcards './usr/share/games/renpy/demo/game/tl/*'
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set scroll --root /tmp/scroll/root \
        --out bench/results/scroll_replies.jsonl

- **adonthell**: Waste's Edge's dialogue and narration, the characters' lines in the inn and around it
  (``usr/share/games/adonthell/games/wastesedge/locale/<lang>/LC_MESSAGES/wastesedge.mo``; a line of
  ``DIALOGUE_CHARS`` letters is a message);
- **kgoldrunner**: KGoldrunner's levels' descriptions and hints (``usr/share/locale/<lang>/LC_MESSAGES/
  kgoldrunner.mo``; its interface strings are not prose and fall out);
- **renpy_tutorial**: Ren'Py's tutorial game, Eileen's and Lucy's lines (``usr/share/games/renpy/demo/game/
  tl/<language>/*.rpy``, each file a domain, read as the lore set reads The Question; a line with a text
  tag or an interpolation is not prose and falls out).

A tenth set, a kart race's story and tips, puzzles and a space shooter's radio chatter (``--set riddle``)::

    mkdir -p /tmp/riddle/root && cd /tmp/riddle
    apt-get download supertuxkart-data gbrainy starfighter-data
    dpkg-deb --fsys-tarfile supertuxkart-data_*.deb | tar x -C root --wildcards './usr/share/games/supertuxkart/data/po/*.po'
    dpkg-deb --fsys-tarfile gbrainy_*.deb | tar x -C root --wildcards './usr/share/locale/*/LC_MESSAGES/gbrainy.mo'
    dpkg-deb --fsys-tarfile starfighter-data_*.deb | tar x -C root --wildcards './usr/share/starfighter/locale/*/LC_MESSAGES/pr-starfighter.mo'
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set riddle --root /tmp/riddle/root \\
        --out bench/results/riddle_replies.jsonl

- **supertuxkart**: SuperTuxKart's story lines, loading tips, help pages and the challenges', karts' and
  powerups' descriptions (``usr/share/games/supertuxkart/data/po/<lang>.po``, compiled with ``msgfmt``,
  which leaves fuzzy translations out; its interface strings are not prose and fall out);
- **gbrainy**: gbrainy's logic, calculation, memory and verbal puzzles, their answers' explanations and
  its tips (``usr/share/locale/<lang>/LC_MESSAGES/gbrainy.mo``; a question with a placeholder for its
  numbers or options, and the command line's help, are not prose and fall out);
- **starfighter**: Project: Starfighter's pilots' radio chatter, cutscene dialogue and mission texts
  (``usr/share/starfighter/locale/<lang>/LC_MESSAGES/pr-starfighter.mo``: Dutch and Japanese).

An eleventh set, the activities of two programs for children (``--set lesson``)::

    mkdir -p /tmp/lesson/root && cd /tmp/lesson
    apt-get download gcompris-qt-data tuxpaint-data
    dpkg-deb --fsys-tarfile gcompris-qt-data_*.deb | tar x -C root --wildcards './usr/share/gcompris-qt/translations/*.qm'
    dpkg-deb --fsys-tarfile tuxpaint-data_*.deb | tar x -C root --wildcards './usr/share/locale/*/LC_MESSAGES/tuxpaint.mo'
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set lesson --root /tmp/lesson/root \\
        --out bench/results/lesson_replies.jsonl

- **gcompris**: GCompris' activities, their goals and instructions, the facts its explore, science and
  history activities tell (monuments, animals, the water cycle, the solar system) and its tutorials' and
  word problems' lines (``usr/share/gcompris-qt/translations/gcompris_<language>.qm``, Qt translation files
  read by ``read_qm``, each Qt context a domain; GCompris' build leaves unfinished translations out; a
  message with a placeholder, ``%1``, and the release notes and KDE's about text are left out);
- **tuxpaint**: Tux Paint's tools and magic tools, each described to the child who picks it
  (``usr/share/locale/<language>/LC_MESSAGES/tuxpaint.mo``; its interface strings are not prose and fall
  out).

A twelfth set, lessons told to the reader at the keyboard (``--set tutor``)::

    mkdir -p /tmp/tutor/root && cd /tmp/tutor
    G="aisleriot five-or-more four-in-a-row gnome-chess gnome-klotski gnome-mahjongg gnome-mines gnome-nibbles
       gnome-robots gnome-sudoku gnome-tetravex hitori iagno lightsoff quadrapassel swell-foop tali"
    apt-get download vim-runtime emacs-common $G
    dpkg-deb --fsys-tarfile vim-runtime_*.deb | tar x -C root --wildcards './usr/share/vim/vim*/tutor/*'
    dpkg-deb --fsys-tarfile emacs-common_*.deb | tar x -C root --wildcards './usr/share/emacs/*/etc/tutorials/*'
    for p in $G; do dpkg-deb --fsys-tarfile "$p"_*.deb | tar x -C root --wildcards './usr/share/help/*'; done
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set tutor --root /tmp/tutor/root \\
        --out bench/results/tutor_replies.jsonl

- **vimtutor**: Vim's tutorial, its lessons (``usr/share/vim/vim*/tutor/tutor.<language>.utf-8``, each
  lesson a source unit; its exercise lines, written with mistakes for the reader to correct, left out);
- **emacs**: Emacs' tutorial (``usr/share/emacs/<version>/etc/tutorials/TUTORIAL.<language>``, decoded by
  the encoding the file names, each section a source unit; its tables of commands and its copyright
  section left out);
- **gnome_games**: the help of seventeen GNOME games, their rules, strategies and scores and Aisleriot's
  solitaires (``usr/share/help/<language>/<game>/*.page``, each page a source unit; the pages on the
  project, bug reports, translation, licence, left out).

A thirteenth set, a typing course's lessons and texts and a transport game's help (``--set course``)::

    mkdir -p /tmp/course/root && cd /tmp/course
    apt-get download klavaro simutrans-data
    dpkg-deb --fsys-tarfile klavaro_*.deb | tar x -C root --wildcards './usr/share/klavaro/*.paragraphs' './usr/share/locale/*/LC_MESSAGES/klavaro.mo'
    dpkg-deb --fsys-tarfile simutrans-data_*.deb | tar x -C root --wildcards './usr/share/games/simutrans/text/*/*.txt'
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set course --root /tmp/course/root \\
        --out bench/results/course_replies.jsonl

- **klavaro**: Klavaro's course, the lessons' instructions and the tutor's remarks on the learner's progress
  (``usr/share/locale/<language>/LC_MESSAGES/klavaro.mo``; a message with a placeholder, ``%.0f``, is not
  prose and falls out), and the texts its exercises have the learner type, written in each language, not
  translated (``usr/share/klavaro/<language>.paragraphs``, ``C`` the English; paragraphs separated by an
  empty line, one longer than ``PARAGRAPH_CHARS`` cut at its sentences' ends; they have no partner);
- **simutrans**: Simutrans' help, the transport game's windows, tools and rules explained
  (``usr/share/games/simutrans/text/<language>/*.txt``, each page a source unit, each paragraph or line a
  paragraph, read as the tutor set reads a tutorial; ``cn`` is Simplified Chinese, ``zh`` Traditional,
  ``pt``, of no stated variant, not read; the Japanese, Korean, Chinese, Russian, Ukrainian, Hungarian and
  Turkish pages are UTF-8 encoded twice in the package, their UTF-8 read as Latin-1 and encoded again, and
  are decoded once more, ``twice_encoded``).

A fourteenth set, tips, settings and captions explained to the player or the user (``--set tips``)::

    mkdir -p /tmp/tips/root && cd /tmp/tips
    apt-get download openttd-data minetest-data gramps pychess tuxpaint-stamps-default hex-a-hop-data
    dpkg-deb --fsys-tarfile openttd-data_*.deb | tar x -C root --wildcards './usr/share/games/openttd/lang/*.lng'
    dpkg-deb --fsys-tarfile minetest-data_*.deb | tar x -C root --wildcards './usr/share/locale/*/LC_MESSAGES/minetest.mo'
    dpkg-deb --fsys-tarfile gramps_*.deb | tar x -C root --wildcards './usr/share/locale/*/LC_MESSAGES/gramps.mo' './usr/share/gramps/tips.xml'
    dpkg-deb --fsys-tarfile pychess_*.deb | tar x -C root --wildcards './usr/share/locale/*/LC_MESSAGES/pychess.mo'
    dpkg-deb --fsys-tarfile tuxpaint-stamps-default_*.deb | tar x -C root --wildcards './usr/share/tuxpaint/stamps/*.txt'
    dpkg-deb --fsys-tarfile hex-a-hop-data_*.deb | tar x -C root --wildcards './usr/share/locale/*/LC_MESSAGES/hex-a-hop.mo'
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set tips --root /tmp/tips/root \\
        --out bench/results/tips_replies.jsonl

- **minetest**: Minetest's settings, each explained to the player who changes it, and its messages
  (``usr/share/locale/<language>/LC_MESSAGES/minetest.mo``);
- **gramps**: Gramps' tips of the day (``usr/share/gramps/tips.xml``, each tip's text, without its title,
  translated in the catalogue; a translation whose title is not marked as the English's is left out) and the genealogy program's explanations and help
  (``usr/share/locale/<language>/LC_MESSAGES/gramps.mo``);
- **openttd**: OpenTTD's settings' explanations, news and messages to the player
  (``usr/share/games/openttd/lang/*.lng``, compiled language files read by ``read_lng``, each string paired
  with the British English one by id, a block of ``OPENTTD_BLOCK`` consecutive ids a source unit; a string
  with a placeholder, a control code other than a font or a colour, is not prose and falls out);
- **pychess**: PyChess' chess variants' rules, its tips and why a game ended
  (``usr/share/locale/<language>/LC_MESSAGES/pychess.mo``);
- **tuxpaint_stamps**: Tux Paint's stamps' captions, what the child is told of the picture it stamps
  (``usr/share/tuxpaint/stamps/<category>/<stamp>.txt``, each category a source unit);
- **hex_a_hop**: Hex-a-Hop's tutorial, what the puzzle's tiles do (``usr/share/locale/<language>/LC_MESSAGES/
  hex-a-hop.mo``; a title before ``|`` read as a sentence's label).

A message whose English lines are items, not one text wrapped (``line_items``: a line ending without a
mark before a line opening in a capital, a line opening with a bullet), is left out in every language; a
line break between two Chinese or Japanese characters, where a translator wrapped the line, is taken out;
a language's regional directory is read as the catalogues above are, but never another language's own
(``own_directories``: ``pt`` is not read as Brazilian Portuguese).

A tutorial's paragraph is paired with the English one at its place when the two files have as many
sections and the section as many paragraphs, else it is its own key (no partner for a switch); a paragraph
opening in lowercase (the rest of a sentence cut by a command on its own line) and one keeping a run of
the English's words are left out.

A fifteenth set, level introductions, tutorials and mission briefings told to the player (``--set levels``)::

    mkdir -p /tmp/levels/root && cd /tmp/levels
    apt-get download glob2-data instead-data crimson neverball-common xmoto lordsawar-data laby \\
        tuxmath-data kblackbox kubrick ksirk kajongg killbots knights kigo ksudoku kbruch kanagram khangman \\
        kwordquiz kjumpingcube
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_games_corpus.py --set levels --root /tmp/levels/root \\
        --out bench/results/levels_replies.jsonl

- **glob2**: Globulation 2's tutorial, the strategy game explained step by step
  (``usr/share/games/glob2/scripts/tutorial_part*.sgsl``: each English ``show("…")`` followed by its
  translations, ``show("…", de)``; a block of ``GLOB2_BLOCK`` English messages a source unit);
- **instead**: INSTEAD's tutorial, an interactive fiction teaching its player to play one
  (``usr/share/games/instead/games/tutorial3/main-<language>.lua``, ``instead_sections``; its Portuguese is
  Brazil's; a block of ``INSTEAD_BLOCK`` definitions a source unit, a paragraph paired by place);
- **crimson**: Crimson Fields' mission briefings, debriefings and reports (``usr/share/games/crimson/
  levels/*.lev``, ``crimson_messages``: each language's block of inverted, NUL-ended messages; each level a
  source unit; a mission's numbered goals left out);
- **neverball**: Neverball's and Neverputt's level introductions and hints (``neverball.mo``; a backslash
  is a line break; a level set's description, difficulty and author, and a message whose English keeps a
  level's French title, ``reads_as_french``, left out);
- **xmoto**, **lordsawar**, **tuxmath**: X-Moto's tutorial and messages, LordsAWar's advisor's counsel
  and scenarios, Tux Math's story (their catalogues read whole, ``catalogue``);
- **laby**: Laby's level stories (``usr/share/laby/levels/*.laby`` and ``usr/share/laby/texts``, each
  block an English ``text`` line and a line per translation, ``fr_FR.UTF-8``; a line opening with ``#``
  is a comment);
- **kdegames**: the tutorials, rules and hints of KDE's games and learning programs (``KDE_GAMES``, their
  catalogues in Qt rich text read as plain text by ``rich_text``; few messages each, one package's units).

The scroll, riddle, lesson, tutor, course, tips and levels sets leave out what the quest set leaves out.

The quest set leaves out, besides the lore set's defects, a translation that keeps a run of
``UNTRANSLATED_WORDS`` words of its English (credits, a line left untranslated) and a translation another
language's catalogue has word for word (``without_borrowed``: Serbian lines in the Turkish Pingus
catalogue). Warmux's, Enigma's and Minetest's catalogues are interface strings and are not read here (the
tips set reads Minetest's settings' explanations).

Besides the story set's defects, a lore message whose English opens in lowercase (a script line cut in
two, a footnote's label) and a translation that is the English with other spacing are left out.

A catalogue's regional directory (``it_IT``, ``uk_UA``, ``es_ES``) is read when the language's own is
missing. Besides what makes a message no prose (below), a message of these catalogues is left out for a
defect of the catalogue (``_STORY_DEFECT``: a named placeholder, a C1 control character, a word glued to
the next capitalised one or to the next sentence, Latin and Cyrillic letters in one word, a statistics
line) and a translation opening in lowercase where the English opens in capitals (an item's name left
before its description).

Messages with format conversions (``%s``), Freeciv's ``?qualifier:`` prefixes, replacement or control
characters, and translations identical to the English are not prose and are left out.

The game catalogues' English is the message id and every translation is a translator's: a switch or
mixing case uses the same messages in a partner language. Fortunes are written in their language and
have no partner.

The **source unit** is a catalogue (or fortune file) and a bucket of its messages (a hash of the English
message id, or of the fortune, modulo ``BUCKETS``): replies are made inside one unit, and the dev/test
split (``judge_cases.split_of``) is by unit, so a message and all its translations are in one split.
Output rows are those of ``build_fiction_corpus.py``: ``{"locale", "source", "keys", "lines", "text"}``
(``bench/fiction_eval.py`` and ``bench/screen_eval.py`` read them).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import html
import json
import re
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import wordfreq
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_fiction_corpus import LOCALE_DIRS, PARTNER_DIRS, prose, read_mo, replies
from build_help_corpus import page_paragraphs
from build_language_corpus import _encodes

BUCKETS = 8
# A message's minimum length: a CJK character carries about three letters of a Latin-script language.
MIN_CHARS = {"ja": 24, "zh-Hans": 24, "zh-Hant": 24, "ko": 36}
# The directory names each language may have in the packages (the first one present is read).
LANGUAGE_DIRS = {
    language: (directory, directory.split("_")[0])
    for language, directory in {**LOCALE_DIRS, **PARTNER_DIRS}.items()
}
LANGUAGE_DIRS |= {"ms": ("ms",), "pt": ("pt", "pt_PT"), "tr": ("tr", "tr_TR"), "sr": ("sr", "sr_RS")}
# Widelands' interface catalogues are not narration.
WIDELANDS_SKIP = frozenset({"widelands", "widelands_console", "widelands_editor"})
FREECIV_DOMAINS = ("freeciv-core", "freeciv-nations")
FORTUNES = {
    "en": ["games/fortunes"], "de": ["games/fortunes/de"], "es": ["games/fortunes/es"],
    "it": ["games/fortunes/it"], "pl": ["games/fortunes/pl"], "ru": ["games/fortunes/ru"],
    "pt-BR": ["games/fortunes/brasil"], "zh": ["games/fortunes/tang300", "games/fortunes/song100", "games/fortunes/chinese"],
}  # fmt: skip
_LUA_PAIR = re.compile(r'^\s*\["((?:[^"\\]|\\.)*)"\]\s*=\s*"((?:[^"\\]|\\.)*)"', re.M)
_TXT_PAIR = re.compile(r'^([\w.-]+\.desc)="?(.*?)"?\s*$', re.M)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_ATTRIBUTION = re.compile(r"^\s*(--|—|―|-)\s*\S.*$", re.M)
# Interface strings and broken text, not prose: format conversions, Freeciv's "?qualifier:" prefixes, a
# replacement character or a control character left in a catalogue.
_NOT_PROSE = re.compile(r"%[-+ #0-9.]*[a-zA-Z]|^\?\w+:|[\ufffd\x00-\x08\x0b-\x1f\x7f]")

Found = dict[str, dict[tuple[str, str], str]]  # language -> {(source unit, key): text}


def unit(package: str, domain: str, key: str) -> str:
    bucket = int(hashlib.sha256(key.encode()).hexdigest(), 16) % BUCKETS
    return f"{package}/{domain}/{bucket}"


def first(base: Path, directories: tuple[str, ...], name: str) -> Path | None:
    """base/DIRECTORY/name for the first of the language's directory names that has it."""
    return next((p for d in directories if (p := base / name.replace("{}", d)).exists()), None)


def clean_prose(text: str, min_chars: int = 60) -> str | None:
    """``prose`` without interface strings and broken text."""
    return None if _NOT_PROSE.search(text) else prose(text, min_chars)


def _add(
    found: Found, language: str, package: str, domain: str, msgid: str, msgstr: str, min_chars: int = 60
) -> None:
    english = clean_prose(msgid, min_chars)
    if english is None:
        return
    source = unit(package, domain, msgid)
    found["en"][(source, msgid)] = english
    text = clean_prose(msgstr, MIN_CHARS.get(language, 60) * min_chars // 60)
    if language != "en" and text is not None and text != english:  # an untranslated message is English
        found[language][(source, msgid)] = text


def widelands(root: Path, found: Found) -> None:
    base = root / "usr/share/games/widelands/data/locale"
    for language, directories in LANGUAGE_DIRS.items():
        if (messages := first(base, directories, "{}/LC_MESSAGES")) is None:
            continue
        for mo in sorted(messages.glob("*.mo")):
            domain = mo.name.removesuffix(".mo")
            if domain not in WIDELANDS_SKIP:
                for msgid, msgstr in read_mo(mo):
                    _add(found, language, "widelands", domain, msgid, msgstr)


def system_catalogues(root: Path, found: Found, package: str, domains: tuple[str, ...]) -> None:
    """The ``domains``' catalogues under ``usr/share/locale`` in every language."""
    for language, directories in LANGUAGE_DIRS.items():
        for domain in domains:
            if (
                mo := first(root / "usr/share/locale", directories, f"{{}}/LC_MESSAGES/{domain}.mo")
            ) is not None:
                for msgid, msgstr in read_mo(mo):
                    _add(found, language, package, domain, msgid, msgstr)


def freeciv(root: Path, found: Found) -> None:
    system_catalogues(root, found, "freeciv", FREECIV_DOMAINS)


def _lua_unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": " ", "t": " "}.get(m.group(1), m.group(1)), text)


def hedgewars(root: Path, found: Found) -> None:
    base = root / "usr/share/games/hedgewars/Data/Locale"
    english_txt: dict[str, dict[str, str]] = {}
    for kind in ("missions", "campaigns"):
        path = base / f"{kind}_en.txt"
        if path.is_file():
            english_txt[kind] = dict(_TXT_PAIR.findall(path.read_text("utf-8", "replace")))
    for language, directories in LANGUAGE_DIRS.items():
        if (lua := first(base, directories, "{}.lua")) is not None:
            for msgid, msgstr in _LUA_PAIR.findall(lua.read_text("utf-8", "replace")):
                _add(found, language, "hedgewars", "lua", _lua_unescape(msgid), _lua_unescape(msgstr))
        for kind, english in english_txt.items():
            if (path := first(base, directories, f"{kind}_{{}}.txt")) is not None:
                for key, text in _TXT_PAIR.findall(path.read_text("utf-8", "replace")):
                    if key in english:
                        _add(found, language, "hedgewars", kind, english[key], text)


def fortune_entries(path: Path) -> Iterator[str]:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return  # a legacy-encoded file
    for entry in re.split(r"^%\s*$", text, flags=re.M):
        # coloured lines are titles and attributions; a CJK line break is no space
        lines = [line for line in entry.splitlines() if "\x1b" not in line]
        body = re.sub(
            r"(?<=[\u3000-\u9fff\uff00-\uffef])\n(?=[\u3000-\u9fff\uff00-\uffef])", "", "\n".join(lines)
        )
        if (body := clean_prose(_ATTRIBUTION.sub("", body), 40)) is not None:
            yield body


def chinese_variant(text: str) -> str | None:
    """The Chinese variant of a fortune (they mix classical texts in traditional characters with simplified
    ones): zh-Hans when more of its characters are written by GB 2312 and not Big5 than the other way round,
    zh-Hant in the opposite case, None when it is even."""
    han = [c for c in text if "\u4e00" <= c <= "\u9fff"]
    simplified = sum(1 for c in han if _encodes(c, "gb2312") and not _encodes(c, "big5"))
    traditional = sum(1 for c in han if _encodes(c, "big5") and not _encodes(c, "gb2312"))
    return "zh-Hans" if simplified > traditional else "zh-Hant" if traditional > simplified else None


def fortunes(root: Path, found: Found) -> None:
    base = root / "usr/share/games/fortunes"
    # The English package's files share the directory with other languages' (fortunes-it, fortunes-zh…).
    claimed = {p for places in FORTUNES.values() for p in places} | {p.name for p in (base / "it").glob("*")}
    for language, places in FORTUNES.items():
        for place in places:
            path = root / "usr/share" / place
            files = [path] if path.is_file() else sorted(p for p in path.glob("*") if p.is_file())
            for file in files:
                name = file.name.removesuffix(".u8")
                if file.suffix == ".dat" or (
                    language == "en" and (f"games/fortunes/{name}" in claimed or name in claimed)
                ):
                    continue  # an index, or another language's file among the English ones
                for body in fortune_entries(file):
                    locale = chinese_variant(body) if language == "zh" else language
                    if locale is not None and not (name == "chinese" and locale == "zh-Hans"):
                        found[locale][(unit(f"fortunes-{language}", name, body), body)] = body


FLARE_MODS = ("empyrean_campaign", "fantasycore")
FREEDROID_DOMAINS = ("freedroidrpg-dialogs", "freedroidrpg-data")


def read_po(path: Path) -> list[tuple[str, str]]:
    """(message id, translation) pairs of a gettext .po file, compiled by ``msgfmt`` (fuzzy ones left out);
    none from a catalogue ``msgfmt`` rejects (its errors are shown)."""
    with tempfile.TemporaryDirectory() as tmp:
        mo = Path(tmp) / "catalogue.mo"
        if subprocess.run(["msgfmt", "-o", str(mo), str(path)], check=False).returncode != 0:
            print(f"{path}: left out", file=sys.stderr)
            return []
        return list(read_mo(mo))


def flare(root: Path, found: Found) -> None:
    base = root / "usr/share/games/flare/mods"
    for language, directories in LANGUAGE_DIRS.items():
        for mod in FLARE_MODS:
            if (po := first(base / mod / "languages", directories, "data.{}.po")) is not None:
                for msgid, msgstr in read_po(po):
                    _add(found, language, "flare", mod, msgid, msgstr)


def freedroidrpg(root: Path, found: Found) -> None:
    system_catalogues(root, found, "freedroidrpg", FREEDROID_DOMAINS)


# Defects of a catalogue, whatever its language: a named format placeholder ("%(player)s"), a C1 control
# character, a lowercase word glued to a capitalised one ("picaretaEsta", "addShips": an item's name run into
# its description, an identifier), a sentence glued to the next ("comum.Éaltamente"), Latin and Cyrillic
# letters in one word ("Cущество"), a statistics line ("+Fuerza armadura…").
_STORY_DEFECT = re.compile(
    r"%\(\w+\)|[\x80-\x9f]|[a-zß-ÿ]{2,}[A-ZÀ-Þ]|[a-zß-ÿ]{2}[.!?][A-ZÀ-Þa-zß-ÿ]"
    r"|[A-Za-z][А-яЁёЄєІіЇїҐґ]|[А-яЁёЄєІіЇїҐґ][A-Za-z]|^\s*\+"
)


def _add_story(
    found: Found, language: str, package: str, domain: str, msgid: str, msgstr: str, min_chars: int = 60
) -> None:
    """``_add`` without the messages whose English or translation has a catalogue defect (``_STORY_DEFECT``),
    or whose translation opens in lowercase where the English opens in capitals (an item's name left before
    its description: "kris Esta é uma réplica…")."""
    opens = (msgid.lstrip()[:1], msgstr.lstrip()[:1])
    if opens[0].isupper() and opens[1].islower():
        return
    if not _STORY_DEFECT.search(msgid) and not _STORY_DEFECT.search(msgstr):
        _add(found, language, package, domain, msgid, msgstr, min_chars)


def _add_lore(
    found: Found, language: str, package: str, domain: str, msgid: str, msgstr: str, min_chars: int = 60
) -> None:
    """``_add_story`` without the messages whose English opens in lowercase (a script's line cut in two,
    "on individual houses.", or a footnote's label, "note 1:") and the translations that are the English
    with other spacing ("what's your name ?")."""
    if not msgid.lstrip()[:1].islower() and "".join(msgid.split()) != "".join(msgstr.split()):
        _add_story(found, language, package, domain, msgid, msgstr, min_chars)


def regional(names: Iterable[str], language: str) -> list[str]:
    """Of the directory names, the language's own ones first, then its regional ones (``it_IT``, ``uk_UA``,
    ``es_AR``) that no other language claims."""
    directories = LANGUAGE_DIRS[language]
    claimed = {d for own in LANGUAGE_DIRS.values() for d in own}
    prefix = directories[0].split("_")[0] + "_"
    present = set(names)
    return [d for d in directories if d in present] + sorted(
        d for d in present if d.startswith(prefix) and d not in claimed
    )


def gettext_catalogues(found: Found, package: str, base: Path, name: str) -> None:
    """The catalogue ``base/<language>/name`` (.mo, or .po compiled) in every language, as one domain."""
    for language in LANGUAGE_DIRS:
        directories = tuple(regional((p.name for p in base.iterdir()), language))
        if (path := first(base, directories, f"{{}}/{name}")) is not None:
            pairs = read_po(path) if path.suffix == ".po" else read_mo(path)
            for msgid, msgstr in pairs:
                _add_story(found, language, package, Path(name).stem, msgid, msgstr)


def cataclysm(root: Path, found: Found) -> None:
    gettext_catalogues(found, "cataclysm", root / "usr/share/locale", "LC_MESSAGES/cataclysm-dda.mo")


def warzone2100(root: Path, found: Found) -> None:
    gettext_catalogues(found, "warzone2100", root / "usr/share/locale", "LC_MESSAGES/warzone2100.mo")


def naev(root: Path, found: Found) -> None:
    gettext_catalogues(found, "naev", root / "usr/share/naev/dat/gettext", "LC_MESSAGES/naev.mo")


def singularity(root: Path, found: Found) -> None:
    base = root / "usr/lib/python3/dist-packages/singularity/i18n"
    names = [p.name.removeprefix("lang_") for p in base.glob("lang_*")]
    for language in LANGUAGE_DIRS:
        for directory in regional(names, language)[:1]:
            for name in SINGULARITY_DOMAINS:
                if (path := base / f"lang_{directory}" / name).is_file():
                    for msgid, msgstr in read_po(path):
                        _add_story(found, language, "singularity", path.stem, msgid, msgstr)


def zero_ad(root: Path, found: Found) -> None:
    base = root / "usr/share/games/0ad/mods/public/l10n"
    for language, directories in LANGUAGE_DIRS.items():
        for domain in ZERO_AD_DOMAINS:
            if (po := first(base, directories, f"{{}}.{domain}.po")) is not None:
                for msgid, msgstr in read_po(po):
                    _add_story(found, language, "0ad", domain, msgid, msgstr)


def freedink(root: Path, found: Found) -> None:
    base = root / "usr/share/games/dink/dink/l10n"
    for language, directories in LANGUAGE_DIRS.items():
        if language != "en" and (po := first(base, directories, "{}.po")) is not None:
            for msgid, msgstr in read_po(po):
                _add_lore(found, language, "freedink", "dink", msgid, msgstr, DIALOGUE_CHARS)


_HTML_PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.S | re.I)
_HTML_TAG = re.compile(r"<[^>]+>")


def html_paragraphs(path: Path) -> list[str]:
    """The text of each paragraph of an HTML page (not its lists: references, links, tables of names), tags
    removed and entities decoded."""
    blocks = _HTML_PARAGRAPH.findall(path.read_text("utf-8", "replace"))
    return [html.unescape(_HTML_TAG.sub("", body)) for body in blocks]


def aligned(
    found: Found,
    language: str,
    package: str,
    domain: str,
    english: list[str],
    translation: list[str],
    add: Callable[[Found, str, str, str, str, str], None] = _add_lore,
) -> None:
    """A translated document's paragraphs, each paired with the English one at its place and given to
    ``add``; none when the two have not the same number of paragraphs (the translation is of another
    revision)."""
    if len(english) == len(translation):
        for msgid, msgstr in zip(english, translation, strict=True):
            add(found, language, package, domain, msgid, msgstr)


def stellarium(root: Path, found: Found) -> None:
    base = root / "usr/share/stellarium/skycultures"
    for culture in sorted(p for p in base.iterdir() if p.is_dir()):
        english = html_paragraphs(culture / "description.en.utf8")
        for language, directories in LANGUAGE_DIRS.items():
            if language != "en" and (page := first(culture, directories, "description.{}.utf8")) is not None:
                aligned(found, language, "stellarium", "skycultures", english, html_paragraphs(page))


_STRING_KEY = re.compile(r"[A-Z0-9_]+")


def stringtable(path: Path) -> dict[str, list[str]]:
    """A FreeOrion string table: each key's lines (a key line, then one value line or a value quoted in
    triple quotes over several lines); comments and blank lines between entries skipped."""
    lines = path.read_text("utf-8-sig", "replace").splitlines()
    table: dict[str, list[str]] = {}
    at = 0
    while at + 1 < len(lines):
        key, value = lines[at].strip(), lines[at + 1]
        if not _STRING_KEY.fullmatch(key):
            at += 1
            continue
        if not value.startswith("'''"):
            table[key], at = [value], at + 2
            continue
        value, end = value[3:], at + 1
        while not value.endswith("'''") and end + 1 < len(lines):
            end += 1
            value += "\n" + lines[end]
        table[key], at = value.removesuffix("'''").split("\n"), end + 1
    return table


def freeorion(root: Path, found: Found) -> None:
    base = root / "usr/share/games/freeorion/default/stringtables"
    english = {k: v for k, v in stringtable(base / "en.txt").items() if FREEORION_LORE.fullmatch(k)}
    for language, directories in LANGUAGE_DIRS.items():
        if language != "en" and (path := first(base, directories, "{}.txt")) is not None:
            table = stringtable(path)
            for key, paragraphs in english.items():
                aligned(found, language, "freeorion", "species", paragraphs, table.get(key, []))


# A Ren'Py translation block: the English line in a comment, then the translated one (each after an optional
# speaker's name).
_RENPY_LINE = re.compile(
    r'^\s*#\s*(?:\w+\s+)?"((?:[^"\\]|\\.)*)"\s*\n\s*(?:\w+\s+)?"((?:[^"\\]|\\.)*)"\s*$', re.M
)
RENPY_LANGUAGES = {
    "french": "fr", "japanese": "ja", "korean": "ko", "malay": "ms", "russian": "ru", "schinese": "zh-Hans",
    "spanish": "es", "tchinese": "zh-Hant", "ukrainian": "uk",
}  # fmt: skip


def the_question(root: Path, found: Found) -> None:
    base = root / "usr/share/games/renpy/the_question/game/tl"
    for directory, language in RENPY_LANGUAGES.items():
        if (path := base / directory / "script.rpy").is_file():
            for msgid, msgstr in _RENPY_LINE.findall(path.read_text("utf-8-sig", "replace")):
                _add_lore(
                    found,
                    language,
                    "the_question",
                    "script",
                    _lua_unescape(msgid),
                    _lua_unescape(msgstr),
                    DIALOGUE_CHARS,
                )


# Fish Fillets NG's dialogue: the line's id, its speaker's font and the English line, then the translation.
_FILLETS_LINE = re.compile(
    r'^dialogId\("[^"]*",\s*"[^"]*",\s*"((?:[^"\\]|\\.)*)"\)\s*\n\s*dialogStr\("((?:[^"\\]|\\.)*)"\)', re.M
)


def fillets(root: Path, found: Found) -> None:
    base = root / "usr/share/games/fillets-ng/script"
    for level in sorted(p for p in base.iterdir() if p.is_dir()):
        for language, directories in LANGUAGE_DIRS.items():
            if language != "en" and (lua := first(level, directories, "dialogs_{}.lua")) is not None:
                for msgid, msgstr in _FILLETS_LINE.findall(lua.read_text("utf-8", "replace")):
                    _add_lore(
                        found,
                        language,
                        "fillets",
                        level.name,
                        _lua_unescape(msgid),
                        _lua_unescape(msgstr),
                        DIALOGUE_CHARS,
                    )


def scenario_paragraphs(path: Path) -> list[list[str]]:
    """An Unknown Horizons scenario's narration: the description, then each logbook page's paragraphs (its
    headlines, images and the tasks' lists, written over several lines, left out)."""
    data = yaml.safe_load(path.read_text("utf-8"))
    pages: list[list[str]] = [[str(data.get("metadata", {}).get("description", ""))]]
    for page in data.get("logbook-data", []):
        pages.append([item for item in page if isinstance(item, str) and item and "\n" not in item.strip()])
    return pages


def unknown_horizons(root: Path, found: Found) -> None:
    base = root / "usr/share/unknown-horizons/content/scenarios"
    english = scenario_paragraphs(base / "The_Unknown_en.yaml")
    for language, directories in LANGUAGE_DIRS.items():
        if language != "en" and (path := first(base, directories, "The_Unknown_{}.yaml")) is not None:
            translated = scenario_paragraphs(path)
            if len(translated) == len(english):
                for paragraphs, translation in zip(english, translated, strict=True):
                    aligned(found, language, "unknown_horizons", "the_unknown", paragraphs, translation)


# Crawl's descriptions and quotes (not its rules: abilities, spells, skills, commands, hints, tutorial).
CRAWL_KINDS = (
    "monsters",
    "unrand",
    "gods",
    "species",
    "backgrounds",
    "branches",
    "features",
    "cards",
    "items",
    "quotes",
)
# Crawl's language directories: its own names where no other language claims them; ``zh`` is simplified.
CRAWL_DIRS = {"zh": "zh-Hans"}
# Lua code ("{{ … }}"), colour markup and references to another entry ("<__d_suffix>"), variables ("$", "@").
_CRAWL_MARKUP = re.compile(r"[{}<>$@]")
_CJK_BREAK = re.compile(r"(?<=[\u3000-\u9fff\uff00-\uffef])\s*\n\s*(?=[\u3000-\u9fff\uff00-\uffef])")


def crawl_entries(path: Path) -> dict[str, str]:
    """A Crawl description file's entries by name (entries between ``%%%%`` lines: the name, then the
    text); a quote's attribution line and what follows it left out, and the entries with markup; the names
    of fragments (``__…``) skipped."""
    entries: dict[str, str] = {}
    for entry in re.split(r"^%%%%\s*$", path.read_text("utf-8", "replace"), flags=re.M):
        name, _, body = entry.strip("\n").partition("\n")
        if name.startswith("__") or _CRAWL_MARKUP.search(body):
            continue
        lines = body.splitlines()
        cut = next((at for at, line in enumerate(lines) if _ATTRIBUTION.fullmatch(line)), len(lines))
        entries[name.strip()] = _CJK_BREAK.sub("", "\n".join(lines[:cut]).strip())
    return entries


# A run of this many words of the English file in a translation is text left untranslated.
UNTRANSLATED_WORDS = 5
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_LATIN_RUN = re.compile(
    rf"{_LATIN_WORD.pattern}[,;:]?(?:\s+{_LATIN_WORD.pattern}[,.;:!?]?){{{UNTRANSLATED_WORDS - 1}}}"
)


def shingles(text: str) -> set[str]:
    """Every run of ``UNTRANSLATED_WORDS`` words of the text (its words lowercased, punctuation dropped)."""
    words = [w.lower() for w in _LATIN_WORD.findall(text)]
    return {
        " ".join(words[at : at + UNTRANSLATED_WORDS]) for at in range(len(words) - UNTRANSLATED_WORDS + 1)
    }


def untranslated(english: set[str], translation: str, latin_script: bool) -> bool:
    """Whether the translation keeps English text: a run of words of the English file (``english``, its
    ``shingles``: a description translated in part, a quote left in English under another entry's name), or,
    in a language not written in Latin letters, any run of ``UNTRANSLATED_WORDS`` Latin words (English of
    another revision)."""
    return (not latin_script and _LATIN_RUN.search(translation) is not None) or not english.isdisjoint(
        shingles(translation)
    )


def latin_share(texts: Iterable[str]) -> float:
    """The share of the texts' letters that are basic Latin ones."""
    letters = latin = 0
    for text in texts:
        letters += sum(c.isalpha() for c in text)
        latin += sum(c.isascii() and c.isalpha() for c in text)
    return latin / max(letters, 1)


def crawl(root: Path, found: Found) -> None:
    base = root / "usr/share/crawl/dat/descript"
    shared = {
        d for own in LANGUAGE_DIRS.values() for d in own if sum(d in o for o in LANGUAGE_DIRS.values()) > 1
    }
    languages = {d: language for language, own in LANGUAGE_DIRS.items() for d in own if d not in shared}
    for directory in sorted(p for p in base.iterdir() if p.is_dir()):
        if (language := CRAWL_DIRS.get(directory.name, languages.get(directory.name))) is None:
            continue
        files = {
            kind: crawl_entries(path) for kind in CRAWL_KINDS if (path := directory / f"{kind}.txt").is_file()
        }
        latin_script = latin_share(t for entries in files.values() for t in entries.values()) > 0.5
        for kind, entries in files.items():
            english = crawl_entries(base / f"{kind}.txt")
            runs = {run for text in english.values() for run in shingles(text)}
            for name, text in entries.items():
                if name in english and not untranslated(runs, text, latin_script):
                    _add_lore(found, language, "crawl", kind, english[name], text)


# FreeCol's messages that are interface, not the game's text: game options, menus, command-line help, errors.
FREECOL_INTERFACE = re.compile(
    r"model\.option\.|model\.advantages\.|clientOptions\.|mapGeneratorOptions\.|menuBar\.|cli\.|error\."
    r"|info\.|main\.|client\.|installer\.|freecol\.|server\.|ai\."
)
# FreeCol's file names where they are not a language directory of ``LANGUAGE_DIRS``.
FREECOL_DIRS = {"zh-Hant": "zh-hant"}


def properties(path: Path) -> dict[str, str]:
    """A Java properties file's messages by key (comments skipped, ``\\n`` a line break, ``\\t`` a space)."""
    messages: dict[str, str] = {}
    for line in path.read_text("utf-8", "replace").splitlines():
        key, equals, value = line.partition("=")
        if equals and not key.lstrip().startswith(("#", "!")):
            value = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": " "}.get(m.group(1), m.group(1)), value)
            messages[key.strip()] = value.strip()
    return messages


def freecol(root: Path, found: Found) -> None:
    """FreeCol's founding fathers' histories, the Colopedia's units, buildings, goods and lands, the monarch's
    and the natives' messages and the game's reports (``FreeColMessages_<language>.properties``; its
    options' descriptions, menus and errors left out)."""
    base = root / "usr/share/games/freecol/strings"
    english = {
        key: text
        for key, text in properties(base / "FreeColMessages.properties").items()
        if not FREECOL_INTERFACE.match(key)
    }
    names = [p.stem.removeprefix("FreeColMessages_") for p in base.glob("FreeColMessages_*.properties")]
    for language in LANGUAGE_DIRS:
        directories = [FREECOL_DIRS[language]] if language in FREECOL_DIRS else regional(names, language)
        for directory in directories[:1]:
            if language != "en" and (path := base / f"FreeColMessages_{directory}.properties").is_file():
                for key, text in properties(path).items():
                    if key in english:
                        _add_lore(found, language, "freecol", key.split(".")[0], english[key], text)


def ufoai(root: Path, found: Found) -> None:
    """UFO: Alien Invasion's UFOpaedia, campaign news and mission briefings (``base/i18n/<language>/
    LC_MESSAGES/ufoai.mo``), a long text's paragraphs paired by position; none of a message a paragraph of
    which is left in English (``untranslated``)."""
    base = root / "usr/share/games/ufoai/base/i18n"
    names = [p.name for p in base.iterdir() if p.is_dir()]
    runs = {run for msgid, _ in read_mo(base / "en/LC_MESSAGES/ufoai.mo") for run in shingles(msgid)}
    for language in LANGUAGE_DIRS:
        for directory in regional(names, language)[:1]:
            if language != "en":
                pairs = list(read_mo(base / directory / "LC_MESSAGES/ufoai.mo"))
                latin_script = latin_share(msgstr for _, msgstr in pairs) > 0.5
                for msgid, msgstr in pairs:
                    english, translation = msgid.split("\n\n"), msgstr.split("\n\n")
                    if not any(untranslated(runs, paragraph, latin_script) for paragraph in translation):
                        aligned(found, language, "ufoai", "ufoai", english, translation)


def lincity(root: Path, found: Found) -> None:
    """LinCity-NG's help pages on the city's buildings, economy and society (``help/<language>/*.xml``),
    paragraphs paired by position."""
    base = root / "usr/share/games/lincity-ng/help"
    for page in sorted((base / "en").glob("*.xml")):
        english = html_paragraphs(page)
        for language, directories in LANGUAGE_DIRS.items():
            if language != "en" and (path := first(base, directories, f"{{}}/{page.name}")) is not None:
                aligned(found, language, "lincity", page.stem, english, html_paragraphs(path))


def _add_quest(
    found: Found, language: str, package: str, domain: str, msgid: str, msgstr: str, min_chars: int = 60
) -> None:
    """``_add_lore`` without the translations that keep a run of the English's words (credits, a sentence
    left untranslated)."""
    if not untranslated(shingles(msgid), msgstr, latin_share([msgstr]) > 0.5):
        _add_lore(found, language, package, domain, msgid, msgstr, min_chars)


def without_borrowed(found: Found) -> Found:
    """The messages without the translations another language's catalogue has word for word (a catalogue
    filled in from another language's: Serbian in the Turkish one); the variants of one language (pt and
    pt-BR, zh-Hans and zh-Hant) may share a translation."""
    by_key: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for language, messages in found.items():
        for key, text in messages.items():
            by_key[key][text].add(language.split("-")[0])
    return {
        language: {key: text for key, text in messages.items() if len(by_key[key][text]) == 1}
        for language, messages in found.items()
    }


def pingus(root: Path, found: Found) -> None:
    base = root / "usr/share/games/pingus/data/po"
    for language, directories in LANGUAGE_DIRS.items():
        if language != "en" and (po := first(base, directories, "{}.po")) is not None:
            for msgid, msgstr in read_po(po):
                _add_quest(found, language, "pingus", "pingus", msgid, msgstr)


# A SuperTux info block's lines: an image ("!images/…"), or text after its marker ("-" a heading, "#" text,
# "*" a small heading, "\t" small text).
_SUPERTUX_IMAGE = re.compile(r"^!.*$", re.M)
_SUPERTUX_MARKER = re.compile(r"^[-#*\t]", re.M)


def supertux_text(message: str) -> str:
    """A SuperTux message without its info block's image lines and line markers."""
    return _SUPERTUX_MARKER.sub("", _SUPERTUX_IMAGE.sub("", message)).strip()


def supertux(root: Path, found: Found) -> None:
    base = root / "usr/share/games/supertux2/levels"
    for world in sorted(p for p in base.iterdir() if p.is_dir()):
        for language, directories in LANGUAGE_DIRS.items():
            if language != "en" and (po := first(world, directories, "{}.po")) is not None:
                for msgid, msgstr in read_po(po):
                    english, translation = supertux_text(msgid), supertux_text(msgstr)
                    _add_quest(found, language, "supertux", world.name, english, translation, DIALOGUE_CHARS)


# Colobot's languages: a help file's letter.
COLOBOT_LETTERS = {"en": "E", "fr": "F", "de": "D", "pl": "P", "ru": "R", "pt-BR": "B", "cs": "C"}
# A link ("\l;text\u target;"): its text is kept; any other markup ("\b;" a heading, "\c;" code, "\key",
# "\button") leaves its paragraph out.
_COLOBOT_LINK = re.compile(r"\\l;(.*?)\\u [^;]*;")


def colobot_paragraphs(path: Path) -> list[str]:
    """A Colobot help file's paragraphs (blank-line separated), links replaced by their text, a heading line
    dropped, and a paragraph with other markup empty (so that the paragraphs still pair by position)."""
    paragraphs = []
    for block in re.split(r"\n\s*\n", path.read_text("utf-8", "replace")):
        lines = [line for line in block.strip().splitlines() if not line.startswith("\\b;")]
        text = _COLOBOT_LINK.sub(r"\1", "\n".join(lines))
        paragraphs.append("" if "\\" in text else text)
    return paragraphs


def colobot(root: Path, found: Found) -> None:
    base = root / "usr/share/games/colobot/levels/missions"
    for help_dir in sorted(base.glob("*/*/help")):
        english = colobot_paragraphs(help_dir / "help.E.txt")
        domain = help_dir.parent.parent.name
        for language, letter in COLOBOT_LETTERS.items():
            if language != "en" and (path := help_dir / f"help.{letter}.txt").is_file():
                aligned(found, language, "colobot", domain, english, colobot_paragraphs(path), _add_quest)


# MegaGlest's language names (a file's name ends with one); the others are not read.
MEGAGLEST_LANGUAGES = {
    "english": "en", "german": "de", "french": "fr", "spanish": "es", "italian": "it", "dutch": "nl",
    "polish": "pl", "russian": "ru", "ukrainian": "uk", "portuguese-brazil": "pt-BR", "turkish": "tr",
    "japanese": "ja", "korean": "ko", "chinese-china": "zh-Hans", "chinese-taiwan": "zh-Hant",
    "indonesian": "id", "vietnamese": "vi", "czech": "cs", "danish": "da", "greek": "el", "romanian": "ro",
    "portuguese": "pt", "slovenian": "sl", "catalan": "ca", "galician": "gl", "bulgarian": "bg",
}  # fmt: skip


def lng_messages(path: Path) -> dict[str, str]:
    """A MegaGlest language file's messages by key (``key=value`` lines; ``;`` comments; ``\\n`` a line
    break)."""
    messages = {}
    for line in path.read_text("utf-8", "replace").splitlines():
        key, equals, value = line.partition("=")
        if equals and not key.lstrip().startswith(";"):
            messages[key.strip()] = value.replace("\\n", "\n")
    return messages


def megaglest(root: Path, found: Found) -> None:
    base = root / "usr/share/games/megaglest"
    for folder in sorted(
        p for kind in ("scenarios", "tutorials") for p in (base / kind).glob("*") if p.is_dir()
    ):
        english = (
            lng_messages(folder / f"{folder.name}_english.lng")
            if (folder / f"{folder.name}_english.lng").is_file()
            else {}
        )
        for name, language in MEGAGLEST_LANGUAGES.items():
            if language != "en" and (path := folder / f"{folder.name}_{name}.lng").is_file():
                for key, text in lng_messages(path).items():
                    if key in english:
                        _add_quest(found, language, "megaglest", folder.name, english[key], text)


# An Enigma level's string: its English, then its translations, each in its language.
_ENIGMA_STRING = re.compile(
    r"<el:string\b[^>]*>\s*<el:english\b[^>]*>(.*?)</el:english>(.*?)</el:string>", re.S
)
_ENIGMA_TRANSLATION = re.compile(r'<el:translation el:lang="([\w-]+)">(.*?)</el:translation>', re.S)
ENIGMA_LANGUAGES = {directory: language for language, own in LANGUAGE_DIRS.items() for directory in own[:1]}


def enigma(root: Path, found: Found) -> None:
    base = root / "usr/share/games/enigma/levels"
    for level in sorted(base.glob("*/*.xml")):
        for english, translations in _ENIGMA_STRING.findall(level.read_text("utf-8", "replace")):
            for directory, translation in _ENIGMA_TRANSLATION.findall(translations):
                if (language := ENIGMA_LANGUAGES.get(directory)) is not None and language != "en":
                    msgid, msgstr = html.unescape(english), html.unescape(translation)
                    _add_quest(found, language, "enigma", level.parent.name, msgid, msgstr, DIALOGUE_CHARS)


def adonthell(root: Path, found: Found) -> None:
    """Waste's Edge's dialogue and narration (``games/wastesedge/locale/<language>/LC_MESSAGES/
    wastesedge.mo``): a line of ``DIALOGUE_CHARS`` letters is a message."""
    base = root / "usr/share/games/adonthell/games/wastesedge/locale"
    for language in LANGUAGE_DIRS:
        directories = tuple(regional((p.name for p in base.iterdir()), language))
        if language != "en" and (mo := first(base, directories, "{}/LC_MESSAGES/wastesedge.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                _add_quest(found, language, "adonthell", "wastesedge", msgid, msgstr, DIALOGUE_CHARS)


def kgoldrunner(root: Path, found: Found) -> None:
    """KGoldrunner's levels' descriptions and hints (``usr/share/locale/<language>/LC_MESSAGES/
    kgoldrunner.mo``; its interface strings are not prose and fall out)."""
    base = root / "usr/share/locale"
    for language in LANGUAGE_DIRS:
        directories = tuple(regional((p.name for p in base.iterdir()), language))
        if language != "en" and (mo := first(base, directories, "{}/LC_MESSAGES/kgoldrunner.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                _add_quest(found, language, "kgoldrunner", "levels", msgid, msgstr)


def renpy_tutorial(root: Path, found: Found) -> None:
    """Ren'Py's tutorial game, Eileen's and Lucy's lines (``renpy/demo/game/tl/<language>/*.rpy``, each file
    a domain; a line with a text tag or an interpolation is not prose and falls out)."""
    base = root / "usr/share/games/renpy/demo/game/tl"
    for directory, language in RENPY_LANGUAGES.items():
        for path in sorted((base / directory).glob("*.rpy")):
            for msgid, msgstr in _RENPY_LINE.findall(path.read_text("utf-8-sig", "replace")):
                english, translation = _lua_unescape(msgid), _lua_unescape(msgstr)
                _add_quest(found, language, "renpy_tutorial", path.stem, english, translation, DIALOGUE_CHARS)


def supertuxkart(root: Path, found: Found) -> None:
    """SuperTuxKart's story lines, tips, help pages and challenges' and powerups' descriptions
    (``usr/share/games/supertuxkart/data/po/<language>.po``, compiled with ``msgfmt``, which leaves fuzzy
    translations out; its interface strings are not prose and fall out)."""
    base = root / "usr/share/games/supertuxkart/data/po"
    for language, directories in LANGUAGE_DIRS.items():
        if language != "en" and (po := first(base, directories, "{}.po")) is not None:
            for msgid, msgstr in read_po(po):
                _add_quest(found, language, "supertuxkart", "supertuxkart", msgid, msgstr)


def gbrainy(root: Path, found: Found) -> None:
    """gbrainy's puzzles, riddles and their answers' explanations, its verbal analogies and memory games'
    texts (``usr/share/locale/<language>/LC_MESSAGES/gbrainy.mo``; a question with a placeholder for its
    numbers or options is not prose and falls out, and neither does the command line's help, a message
    opening with an option's name: ``--norandom``)."""
    base = root / "usr/share/locale"
    for language in LANGUAGE_DIRS:
        directories = tuple(regional((p.name for p in base.iterdir()), language))
        if language != "en" and (mo := first(base, directories, "{}/LC_MESSAGES/gbrainy.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                if not msgid.lstrip().startswith("--"):
                    _add_quest(found, language, "gbrainy", "gbrainy", msgid, msgstr)


def starfighter(root: Path, found: Found) -> None:
    """Project: Starfighter's pilots' radio chatter, cutscene dialogue and mission briefings
    (``usr/share/starfighter/locale/<language>/LC_MESSAGES/pr-starfighter.mo``; ja, nl)."""
    base = root / "usr/share/starfighter/locale"
    for language, directories in LANGUAGE_DIRS.items():
        if (
            language != "en"
            and (mo := first(base, directories, "{}/LC_MESSAGES/pr-starfighter.mo")) is not None
        ):
            for msgid, msgstr in read_mo(mo):
                _add_quest(found, language, "starfighter", "starfighter", msgid, msgstr)


# A Qt translation file (.qm): its magic, and in its messages block the tags of a message's fields (a
# length-prefixed string each: the translation in UTF-16, the source text, context and comment in UTF-8;
# ``QM_END`` closes a message, ``QM_OBSOLETE`` is a four-byte field of old files).
QM_MAGIC = bytes.fromhex("3cb86418caef9c95cd211cbf60a1bddd")
QM_MESSAGES, QM_END, QM_TRANSLATION, QM_OBSOLETE = 0x69, 1, 3, 5
QM_FIELDS = {QM_TRANSLATION: "translation", 6: "source", 7: "context", 8: "comment"}


def read_qm(path: Path) -> Iterator[tuple[str, str, str]]:
    """(context, source text, translation) of each message of a Qt .qm file that has one translation (not
    a plural form's several); none from a file that is no .qm, and none from a field it does not know on
    (the UTF-16 source texts and contexts of Qt 3's files)."""
    data = path.read_bytes()
    if data[:16] != QM_MAGIC:
        return
    at, block = 16, b""
    while at + 5 <= len(data):
        tag, size = data[at], int.from_bytes(data[at + 1 : at + 5], "big")
        if tag == QM_MESSAGES:
            block = data[at + 5 : at + 5 + size]
        at += 5 + size
    at = 0
    fields: dict[str, str] = {}
    translations: list[str] = []
    while at < len(block):
        tag, at = block[at], at + 1
        if tag == QM_END:
            if len(translations) == 1 and "source" in fields:
                yield fields.get("context", ""), fields["source"], translations[0]
            fields, translations = {}, []
        elif tag == QM_OBSOLETE:
            at += 4
        elif tag in QM_FIELDS:
            size = int.from_bytes(block[at : at + 4], "big")
            raw, at = (b"", at + 4) if size == 0xFFFFFFFF else (block[at + 4 : at + 4 + size], at + 4 + size)
            if tag == QM_TRANSLATION:
                translations.append(raw.decode("utf-16-be", "replace"))
            else:
                fields[QM_FIELDS[tag]] = raw.decode("utf-8", "replace")
        else:
            return


# GCompris' release notes and KDE's about text are not the activities' voice.
GCOMPRIS_SKIP = frozenset({"ChangeLog", "DialogAbout"})
# A Qt placeholder ("%1", "%L1") stands for a number or a name the activity fills in.
_QT_PLACEHOLDER = re.compile(r"%L?\d")


def gcompris(root: Path, found: Found) -> None:
    """GCompris' activities: their goals and instructions, the facts its explore, science and history
    activities tell and the lines of its tutorials (``usr/share/gcompris-qt/translations/gcompris_<language>
    .qm``, each Qt context a domain; its build leaves unfinished translations out; a message with a
    placeholder is not prose and falls out)."""
    base = root / "usr/share/gcompris-qt/translations"
    names = [p.stem.removeprefix("gcompris_") for p in base.glob("gcompris_*.qm")]
    for language in LANGUAGE_DIRS:
        for directory in regional(names, language)[:1]:
            for context, msgid, msgstr in read_qm(base / f"gcompris_{directory}.qm"):
                if context not in GCOMPRIS_SKIP and not _QT_PLACEHOLDER.search(msgid + msgstr):
                    _add_quest(found, language, "gcompris", context, msgid, msgstr)


def tuxpaint(root: Path, found: Found) -> None:
    """Tux Paint's tools and magic tools, each described to the child who picks it (``usr/share/locale/
    <language>/LC_MESSAGES/tuxpaint.mo``; its interface strings are not prose and fall out)."""
    base = root / "usr/share/locale"
    for language in LANGUAGE_DIRS:
        directories = tuple(regional((p.name for p in base.iterdir()), language))
        if (mo := first(base, directories, "{}/LC_MESSAGES/tuxpaint.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                _add_quest(found, language, "tuxpaint", "tuxpaint", msgid, msgstr)


# Vim's and Emacs' tutorials, each file one language: the language of each (Vim's ``tutor.pt`` is Brazilian
# Portuguese, its header says; ``tutor.zh`` is ``tutor.zh_tw`` again; Emacs' ``cn`` is Simplified Chinese
# and ``zh`` Traditional).
VIM_TUTORS = {
    "en": "tutor.utf-8", "pt-BR": "tutor.pt.utf-8", "zh-Hans": "tutor.zh_cn.utf-8", "zh-Hant": "tutor.zh_tw.utf-8",
    **{language: f"tutor.{language}.utf-8" for language in (
        "es", "fr", "de", "it", "nl", "pl", "ru", "uk", "tr", "ja", "ko", "vi",
        "bg", "ca", "cs", "da", "el", "eo", "hr", "hu", "lv", "nb", "sk", "sr", "sv",
    )},
}  # fmt: skip
EMACS_TUTORIALS = {
    "en": "TUTORIAL", "pt-BR": "TUTORIAL.pt_BR", "zh-Hans": "TUTORIAL.cn", "zh-Hant": "TUTORIAL.zh",
    **{language: f"TUTORIAL.{language}" for language in (
        "es", "fr", "de", "it", "nl", "pl", "ru", "ja", "ko", "bg", "cs", "eo", "he", "ro", "sk", "sl", "sv",
    )},
}  # fmt: skip
# Vim's lessons are divided by a line of tildes; an Emacs section opens with its title underlined.
_VIM_RULE = re.compile(r"^\s*~{20,}\s*$", re.M)
_EMACS_TITLE = re.compile(r"^.*\S.*\n[-=]{4,}\s*$", re.M)
# A Vim exercise line ("---> Thhe cow jumpedd…"): text with mistakes made on purpose for the reader to fix.
_VIM_EXERCISE = re.compile(r"^\s*--->", re.M)
# An Emacs file names its encoding in its last lines ("coding: iso-2022-jp").
_CODING = re.compile(r"coding:\s*([\w-]+)")


def tutorial_text(path: Path) -> str:
    """A tutorial file's text, decoded by the encoding its last lines name (UTF-8 when they name none)."""
    data = path.read_bytes()
    coding = _CODING.search(data[-400:].decode("ascii", "replace"))
    return data.decode(coding.group(1) if coding else "utf-8", "replace")


def tutorial_paragraphs(section: str, vim: bool = False) -> list[str]:
    """A section's paragraphs (blocks between blank lines), each one line: a line break between CJK
    characters is no space, another one a space; an Emacs instruction's ``>>`` taken off. Left empty, so that
    the places of the others stay those of the English: in Vim's tutorial (``vim``) an exercise, in Emacs'
    a block with an indented line (a table of commands; Emacs' prose is flush left)."""
    paragraphs = []
    for block in re.split(r"\n(?:[ \t]*\n)+", section.strip("\n")):
        if _VIM_EXERCISE.search(block) if vim else re.search(r"^[ \t]+\S", block, re.M):
            block = ""
        lines = [re.sub(r"^>>\s*", "", line.strip()) for line in block.strip("\n").splitlines()]
        paragraphs.append(_CJK_BREAK.sub("", "\n".join(lines)).replace("\n", " ").strip())
    return paragraphs


def _add_tutorial(
    found: Found,
    language: str,
    package: str,
    sections: list[list[str]],
    english: list[list[str]],
    words: set[str],
) -> None:
    """A tutorial's paragraphs, each section a source unit (by its place in the file). A paragraph is paired
    with the English one at its place when the translation has the English's sections and the section its
    paragraphs (a switch or mixing case can then use it); else it is its own key. A translation that keeps a
    run of the English's words (``untranslated``) is left out, and a paragraph opening in lowercase: the
    rest of a sentence whose beginning is before a command shown on its own line, which is not read."""
    latin_script = latin_share(p for section in sections for p in section) > 0.5
    for at, paragraphs in enumerate(sections):
        source = f"{package}/{at}"
        parallel = len(sections) == len(english) and len(paragraphs) == len(english[at])
        for place, paragraph in enumerate(paragraphs):
            text = clean_prose(paragraph, MIN_CHARS.get(language, 60))
            if (
                text is None
                or text[0].islower()
                or (language != "en" and untranslated(words, text, latin_script))
            ):
                continue
            found[language][(source, english[at][place] if parallel else paragraph)] = text


def _tutorials(
    found: Found,
    package: str,
    base: Path | None,
    files: dict[str, str],
    split: Callable[[str], list[list[str]]],
) -> None:
    if base is None or not (base / files["en"]).is_file():
        return
    english = split(tutorial_text(base / files["en"]))
    words = {w for section in english for p in section for w in shingles(p)}
    for language, name in files.items():
        if (path := base / name).is_file():
            _add_tutorial(found, language, package, split(tutorial_text(path)), english, words)


def vim_lessons(text: str) -> list[list[str]]:
    """vimtutor's lessons (the text between lines of tildes), each a list of paragraphs."""
    return [tutorial_paragraphs(lesson, vim=True) for lesson in _VIM_RULE.split(text)]


def emacs_sections(text: str) -> list[list[str]]:
    """The Emacs tutorial's sections (the opening and each titled one), each a list of paragraphs, up to the
    one with the copyright notice (which holds the licence and is not read, nor what follows it)."""
    cut = text.find("Copyright")
    if cut >= 0:
        text = text[: max((m.start() for m in _EMACS_TITLE.finditer(text, 0, cut)), default=0)]
    return [tutorial_paragraphs(section) for section in _EMACS_TITLE.split(text)]


def vimtutor(root: Path, found: Found) -> None:
    """Vim's tutorial, its lessons narrated to the reader at the keyboard (``usr/share/vim/vim*/tutor/
    tutor.<language>.utf-8``); the exercise lines, written with mistakes to correct, are left out."""
    _tutorials(
        found,
        "vimtutor",
        next(iter(sorted(root.glob("usr/share/vim/vim*/tutor"))), None),
        VIM_TUTORS,
        vim_lessons,
    )


def emacs_tutorial(root: Path, found: Found) -> None:
    """Emacs' tutorial (``usr/share/emacs/<version>/etc/tutorials/TUTORIAL.<language>``), each section a
    source unit; its copyright section is left out."""
    base = next(iter(sorted(root.glob("usr/share/emacs/*/etc/tutorials"))), None)
    _tutorials(found, "emacs", base, EMACS_TUTORIALS, emacs_sections)


# GNOME's games whose help pages (Mallard) tell how each is played.
GNOME_GAMES = (
    "aisleriot", "five-or-more", "four-in-a-row", "gnome-chess", "gnome-klotski", "gnome-mahjongg", "gnome-mines",
    "gnome-nibbles", "gnome-robots", "gnome-sudoku", "gnome-tetravex", "hitori", "iagno", "lightsoff",
    "quadrapassel", "swell-foop", "tali",
)  # fmt: skip
# The pages on the project (how to report a bug, translate, write documentation; the licence): not the game.
GNOME_GAMES_SKIP = frozenset({"bug-filing", "develop", "documentation", "license", "translate"})


def gnome_games(root: Path, found: Found) -> None:
    """The help of GNOME's games: their rules, how to play and score, Aisleriot's solitaires one page each
    (``usr/share/help/<language>/<game>/*.page``, the English in ``C``; each page a source unit, its
    paragraphs paired with the English page's by place when the two have as many; a paragraph left in
    English by the translation, ``untranslated``, is left out; the pages on the project, not the game,
    are not read)."""
    base = root / "usr/share/help"
    if not (base / "C").is_dir():
        return
    names = [p.name for p in base.iterdir()]
    for game in GNOME_GAMES:
        for page in sorted(p for p in (base / "C" / game).glob("*.page") if p.stem not in GNOME_GAMES_SKIP):
            english = page_paragraphs(page)
            words = {w for p in english for w in shingles(p)}
            for language in ("en", *LANGUAGE_DIRS):
                directory = "C" if language == "en" else next(iter(regional(names, language)), None)
                if directory is not None and (path := base / directory / game / page.name).is_file():
                    sections = [page_paragraphs(path)]
                    _add_tutorial(
                        found, language, f"gnome_games/{game}/{page.stem}", sections, [english], words
                    )


# A Klavaro text's paragraph longer than this is cut at its sentences' ends (``prose`` reads 900 at most).
PARAGRAPH_CHARS = 600
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


def paragraph_pieces(paragraph: str) -> list[str]:
    """A paragraph as pieces of at most ``PARAGRAPH_CHARS`` characters, cut at its sentences' ends (a
    sentence longer than that is a piece of its own)."""
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(" ".join(paragraph.split())):
        if pieces and len(pieces[-1]) + 1 + len(sentence) <= PARAGRAPH_CHARS:
            pieces[-1] += " " + sentence
        else:
            pieces.append(sentence)
    return pieces


def klavaro(root: Path, found: Found) -> None:
    """Klavaro's course and remarks (its catalogue, messages paired by their English) and the texts its
    exercises give to type, written in each language (``<language>.paragraphs``, no partner)."""
    base = root / "usr/share/locale"
    if base.is_dir():
        for language in LANGUAGE_DIRS:
            directories = tuple(regional((p.name for p in base.iterdir()), language))
            if (mo := first(base, directories, "{}/LC_MESSAGES/klavaro.mo")) is not None:
                for msgid, msgstr in read_mo(mo):
                    _add_quest(found, language, "klavaro", "klavaro", msgid, msgstr)
    texts = root / "usr/share/klavaro"
    names = [p.stem for p in texts.glob("*.paragraphs")]
    for language in ("en", *LANGUAGE_DIRS):
        directory = "C" if language == "en" else next(iter(regional(names, language)), None)
        if directory is None or not (path := texts / f"{directory}.paragraphs").is_file():
            continue
        for paragraph in re.split(r"\n\s*\n", path.read_text("utf-8").lstrip("\ufeff")):
            for piece in paragraph_pieces(paragraph):
                if (text := clean_prose(piece, MIN_CHARS.get(language, 60))) is not None:
                    found[language][(unit("klavaro", "paragraphs", text), text)] = text


# Simutrans' help directories that are not the language's code (``cn`` Simplified Chinese, ``zh`` Traditional;
# ``pt``, of no stated variant, is not read).
SIMUTRANS_DIRS = {"cn": "zh-Hans", "zh": "zh-Hant", "cz": "cs", "dk": "da", "pt": None}
# A Simutrans help page's title and heading, and what divides its text: a paragraph or a line break.
_SIMUTRANS_HEADING = re.compile(r"<(title|h\d)>.*?</\1>", re.S | re.I)
_SIMUTRANS_BREAK = re.compile(r"<br\s*/?>|</?p>|\n\s*\n", re.I)
_CJK = "\u3040-\u30ff\u3400-\u9fff\uff00-\uffef"
_CJK_WRAP = re.compile(rf"(?<=[{_CJK}])<br\s*/?>\s*(?=[{_CJK}])", re.I)
# A Korean page translated sentence by sentence from the Japanese one and laid out as it: a sentence glued
# to the next without a space ("반영됩니다.다만"), a line broken between two syllables where the Japanese
# line wrapped, inside a word ("기관<br>차와").
_JAPANESE_LAYOUT = re.compile(r"[\uac00-\ud7a3](?:[.。]|<br\s*/?>\s*)[\uac00-\ud7a3]", re.I)


def twice_encoded(text: str) -> str:
    """The text of a file whose UTF-8 was read as Latin-1 and encoded in UTF-8 again (``ç·\x8få\x90\x88`` for
    ``総合``), decoded once more; any other text as it is."""
    try:
        return text.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return text


# A page is written without its language's accented letters when it has at least this many letters and
# fewer than this share of the language's rate of them (a language whose rate is under the floor, English,
# Dutch, Indonesian, is not checked).
WITHOUT_ACCENTS_LETTERS = 300
WITHOUT_ACCENTS_SHARE = 0.25
WITHOUT_ACCENTS_FLOOR = 0.005


@functools.cache
def accented_rate(language: str) -> float:
    """The share of letters beyond ASCII in the language's running text, from its word list (wordfreq's
    5,000 most frequent words, each weighed by its frequency); 0 for a language it has no list of."""
    try:
        frequencies = wordfreq.get_frequency_dict(language.split("-")[0])
    except LookupError:
        return 0.0
    letters = accented = 0.0
    for word in sorted(frequencies, key=frequencies.__getitem__, reverse=True)[:5000]:
        frequency = frequencies[word]
        letters += frequency * sum(c.isalpha() for c in word)
        accented += frequency * sum(c.isalpha() and not c.isascii() for c in word)
    return accented / letters if letters else 0.0


def without_accents(language: str, text: str) -> bool:
    """Whether the text is written without its language's accented letters (``Dzieki tej opcji wzniesienia
    moga byc lagodniejsze``, ``los vehiculos``): letters lost at the source, as the encoding rules read
    them."""
    rate = accented_rate(language)
    letters = [c for c in _HTML_TAG.sub("", text) if c.isalpha()]
    if rate < WITHOUT_ACCENTS_FLOOR or len(letters) < WITHOUT_ACCENTS_LETTERS:
        return False
    return sum(not c.isascii() for c in letters) < WITHOUT_ACCENTS_SHARE * rate * len(letters)


def simutrans_paragraphs(text: str) -> list[str]:
    """The text of a Simutrans help page, each paragraph or line a paragraph (tags removed, entities decoded);
    a line break between two Japanese or Chinese characters is where the page's fixed-width lines wrap, inside
    a sentence or a word, and is taken out."""
    text = _SIMUTRANS_HEADING.sub("\n\n", _CJK_WRAP.sub("", text))
    pieces = (html.unescape(_HTML_TAG.sub("", piece)) for piece in _SIMUTRANS_BREAK.split(text))
    return [" ".join(piece.split()) for piece in pieces if piece.strip()]


def simutrans(root: Path, found: Found) -> None:
    """Simutrans' help, the transport game's windows and tools explained (``usr/share/games/simutrans/text/
    <language>/*.txt``, each page a source unit; a paragraph paired with the English page's at its place when
    the two pages have as many paragraphs, else its own key; a paragraph left in English is left out, and so
    are a Korean page laid out as the Japanese one, ``_JAPANESE_LAYOUT``, and a page written without its
    language's accented letters, ``without_accents``)."""
    base = root / "usr/share/games/simutrans/text"
    if not (base / "en").is_dir():
        return
    codes = {"en": "en"} | {directories[0]: language for language, directories in LANGUAGE_DIRS.items()}
    for directory in sorted(p for p in base.iterdir() if p.is_dir()):
        name = directory.name
        language = SIMUTRANS_DIRS[name] if name in SIMUTRANS_DIRS else codes.get(name)
        if language is None:
            continue
        for page in sorted(directory.glob("*.txt")):
            if not (english_page := base / "en" / page.name).is_file():
                continue
            text = twice_encoded(page.read_text("utf-8", "replace"))
            if _JAPANESE_LAYOUT.search(text) or without_accents(language, text):
                continue
            english = simutrans_paragraphs(english_page.read_text("utf-8", "replace"))
            words = {w for p in english for w in shingles(p)}
            sections = [simutrans_paragraphs(text)]
            _add_tutorial(found, language, f"simutrans/{page.stem}", sections, [english], words)


def own_directories(names: Iterable[str], language: str) -> list[str]:
    """``regional`` without another language's own directory (``pt``, European Portuguese, is not read as
    Brazilian Portuguese when ``pt_BR`` is missing)."""
    others = {directories[0] for other, directories in LANGUAGE_DIRS.items() if other != language}
    return [d for d in regional(names, language) if d not in others]


def _add_in_unit(found: Found, source: str, language: str, msgid: str, msgstr: str) -> None:
    """``_add_quest`` with the message in the source unit given (a block of a file, a directory), not in a
    bucket of its catalogue's hash."""
    one: Found = defaultdict(dict)
    package, _, domain = source.partition("/")
    _add_quest(one, language, package, domain, msgid, msgstr)
    for lang, messages in one.items():
        for (_, key), text in messages.items():
            found[lang][(source, key)] = text


# OpenTTD's compiled language files: a header (``LanguagePackHeader``, 572 bytes: its ISO code at 72, the
# number of strings of each of its 32 tabs at 88), then every string, its length in one byte or, from 0xC0
# on, in two.
OPENTTD_HEADER = 572
# OpenTTD's control codes (Unicode private use) that only set the font or the colour; any other one is a
# placeholder for a name, a number or a date filled in at run time, and the message is not prose.
_OPENTTD_FORMAT = re.compile("[\ue002\ue003\ue03b-\ue04d]")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
# A unit of OpenTTD's strings: this many consecutive ones (a setting's name and explanation, its neighbours).
OPENTTD_BLOCK = 10


def read_lng(path: Path) -> tuple[str, list[str | None]]:
    """The ISO code and the strings of an OpenTTD language file, in the order of their ids (None: a string
    that is not UTF-8, one holding a case or gender switch)."""
    data = path.read_bytes()
    if data[:4] != b"LANG" or len(data) < OPENTTD_HEADER:
        return "", []
    iso = data[72:88].split(b"\0")[0].decode("ascii", "replace")
    counts = struct.unpack_from("<32H", data, 88)
    strings: list[str | None] = []
    at = OPENTTD_HEADER
    for _ in range(sum(counts)):
        if at >= len(data):
            break
        length = data[at]
        at += 1
        if length >= 0xC0:
            length = ((length & 0x3F) << 8) + data[at]
            at += 1
        try:
            strings.append(data[at : at + length].decode("utf-8"))
        except UnicodeDecodeError:
            strings.append(None)
        at += length
    return iso, strings


def openttd_text(text: str | None) -> str | None:
    """A string of OpenTTD's without its font and colour codes; None when it holds a placeholder."""
    if text is None:
        return None
    text = _OPENTTD_FORMAT.sub("", text)
    return None if _PRIVATE_USE.search(text) else text


def openttd(root: Path, found: Found) -> None:
    """OpenTTD's strings: its settings' explanations, its news and messages to the player and its tools'
    help (``usr/share/games/openttd/lang/*.lng``, compiled language files read by ``read_lng``, paired with
    the British English one by id; a string with a placeholder is not prose and falls out; a string the
    translators left untranslated is the English in the file and falls out)."""
    base = root / "usr/share/games/openttd/lang"
    if not (base / "english.lng").is_file():
        return
    _, english = read_lng(base / "english.lng")
    files = {iso: strings for iso, strings in map(read_lng, sorted(base.glob("*.lng"))) if iso}
    for language in LANGUAGE_DIRS:
        for iso in own_directories(files, language)[:1]:
            strings = files[iso]
            if len(strings) != len(english):
                continue
            for index, (msgid, msgstr) in enumerate(zip(english, strings, strict=True)):
                if (msgid := openttd_text(msgid)) is None or (msgstr := openttd_text(msgstr)) is None:
                    continue
                if line_items(msgid):
                    continue
                _add_in_unit(found, f"openttd/{index // OPENTTD_BLOCK}", language, msgid, msgstr)


# A message whose lines are items, not one text wrapped: a line ending without a mark before a line opening
# in a capital ("Show entity selection boxes\nA restart is required…"), or a line opening with a bullet.
_LINE_ITEMS = re.compile(r"[^\s.!?:;,…]\n\s*[A-Z]|\n\s*[-*•]")


def line_items(msgid: str) -> bool:
    """Whether the English message's lines are items (a label, a note, a list), which joined into one
    paragraph would read as a sentence without its end, in every language."""
    return _LINE_ITEMS.search(msgid) is not None


def minetest(root: Path, found: Found) -> None:
    """Minetest's settings, each explained to the player who changes it, and its messages (``usr/share/
    locale/<language>/LC_MESSAGES/minetest.mo``; a line break between two Chinese or Japanese characters,
    where the translator wrapped the line, taken out; its interface strings are not prose and fall out)."""
    base = root / "usr/share/locale"
    if not base.is_dir():
        return
    for language in LANGUAGE_DIRS:
        directories = tuple(own_directories((p.name for p in base.iterdir()), language))
        if (mo := first(base, directories, "{}/LC_MESSAGES/minetest.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                if not line_items(msgid):
                    _add_quest(found, language, "minetest", "minetest", msgid, _CJK_BREAK.sub("", msgstr))


_GRAMPS_TIP = re.compile(r"<tip\b[^>]*>(.*?)</tip>", re.S)
_GRAMPS_TITLE = re.compile(r"^\s*<b>.*?</b>\s*<br\s*/?>", re.S)


def gramps_tip(tip: str) -> str:
    """A Gramps tip without its title (``<b>Working with Dates</b><br/>``), its other tags and entities."""
    return html.unescape(_HTML_TAG.sub(" ", _GRAMPS_TITLE.sub("", tip)))


def gramps(root: Path, found: Found) -> None:
    """Gramps' tips of the day (``usr/share/gramps/tips.xml``, each tip's text translated in the catalogue,
    without its title; a translation whose title is not marked as the English's, ``<b>…</b><br/>``, would
    glue it to the text and is left out) and its messages, the genealogy program's help and explanations (``usr/share/locale/
    <language>/LC_MESSAGES/gramps.mo``; a message with a placeholder, ``%(name)s``, and its interface
    strings are not prose and fall out)."""
    base = root / "usr/share/locale"
    tips_path = root / "usr/share/gramps/tips.xml"
    if not base.is_dir() or not tips_path.is_file():
        return
    tips = set(_GRAMPS_TIP.findall(tips_path.read_text("utf-8")))
    for language in LANGUAGE_DIRS:
        directories = tuple(own_directories((p.name for p in base.iterdir()), language))
        if (mo := first(base, directories, "{}/LC_MESSAGES/gramps.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                msgstr = _CJK_BREAK.sub("", msgstr)
                if line_items(msgid):
                    continue
                if msgid in tips:
                    if _GRAMPS_TITLE.match(msgstr) or not _GRAMPS_TITLE.match(msgid):
                        _add_quest(found, language, "gramps", "tips", gramps_tip(msgid), gramps_tip(msgstr))
                else:
                    _add_quest(found, language, "gramps", "gramps", msgid, msgstr)


def pychess(root: Path, found: Found) -> None:
    """PyChess' messages: its chess variants' rules, its tips to the player, why a game ended (``usr/share/
    locale/<language>/LC_MESSAGES/pychess.mo``; its interface strings are not prose and fall out)."""
    base = root / "usr/share/locale"
    if not base.is_dir():
        return
    for language in LANGUAGE_DIRS:
        directories = tuple(own_directories((p.name for p in base.iterdir()), language))
        if (mo := first(base, directories, "{}/LC_MESSAGES/pychess.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                if not line_items(msgid):
                    _add_quest(found, language, "pychess", "pychess", msgid, _CJK_BREAK.sub("", msgstr))


_STAMP_TRANSLATION = re.compile(r"^([\w@]+)\.utf8=(.*)$", re.M)


def tuxpaint_stamps(root: Path, found: Found) -> None:
    """Tux Paint's stamps' captions, what the child is told of the picture it stamps (``usr/share/tuxpaint/
    stamps/<category>/<stamp>.txt``: the English on the first line, then ``<language>.utf8=`` lines; a
    category's directory is a source unit)."""
    base = root / "usr/share/tuxpaint/stamps"
    for path in sorted(base.rglob("*.txt")):
        english, _, rest = path.read_text("utf-8", "replace").partition("\n")
        translations = dict(_STAMP_TRANSLATION.findall(rest))
        source = f"tuxpaint-stamps/{path.parent.relative_to(base)}"
        for language in LANGUAGE_DIRS:
            for directory in own_directories(translations, language)[:1]:
                _add_in_unit(found, source, language, english.strip(), translations[directory])


def hex_a_hop(root: Path, found: Found) -> None:
    """Hex-a-Hop's tutorial, what the puzzle's tiles do told to the player (``usr/share/locale/<language>/
    LC_MESSAGES/hex-a-hop.mo``; a title before ``|``, ``Objective:|Your goal…``, read as a sentence's label)."""
    base = root / "usr/share/locale"
    if not base.is_dir():
        return
    for language in LANGUAGE_DIRS:
        directories = tuple(own_directories((p.name for p in base.iterdir()), language))
        if (mo := first(base, directories, "{}/LC_MESSAGES/hex-a-hop.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                _add_quest(
                    found, language, "hexahop", "hexahop", msgid.replace("|", "\n"), msgstr.replace("|", "\n")
                )


# Globulation 2's tutorial scripts: a message shown to the player, in English, then the same message in each
# language that translated it (``show("…", de)``); a line opening with ``#`` is a comment.
_GLOB2_SHOW = re.compile(r'^[ \t]*show\("([^"\n]*)"\s*(?:,\s*([a-z]{2})\s*)?\)', re.M)
# A unit of Globulation 2's tutorial: this many consecutive English messages of one script.
GLOB2_BLOCK = 8


def glob2(root: Path, found: Found) -> None:
    """Globulation 2's tutorial, the strategy game explained to the player step by step (``usr/share/games/
    glob2/scripts/tutorial_part*.sgsl``: each English ``show("…")`` followed by its translations,
    ``show("…", de)``; a block of ``GLOB2_BLOCK`` English messages of a script is a source unit)."""
    codes = {directories[0]: language for language, directories in LANGUAGE_DIRS.items()}
    for script in sorted((root / "usr/share/games/glob2/scripts").glob("tutorial_part*.sgsl")):
        english, index = None, -1
        for text, code in _GLOB2_SHOW.findall(script.read_text("utf-8", "replace")):
            if not code:
                english, index = text, index + 1
            elif english is not None and (language := codes.get(code)) is not None:
                _add_in_unit(found, f"glob2/{script.stem}/{index // GLOB2_BLOCK}", language, english, text)


def rich_text(text: str) -> str:
    """A Qt rich-text message as plain text: its tags taken out (a break or a paragraph's end a line
    break), its entities decoded."""
    text = re.sub(r"<br\s*/?>|</p>", "\n", text, flags=re.I)
    return html.unescape(_HTML_TAG.sub("", text)).replace("\xa0", " ")


def catalogue(
    package: str, base: str, name: str, markup: bool = False, domain: str = ""
) -> Callable[[Path, Found], None]:
    """A reader of one program's gettext catalogue ``<base>/<language>/LC_MESSAGES/<name>.mo`` in every
    language, its messages in the source units of ``package`` and ``domain`` (the catalogue's name when not
    given) by hash (its interface strings and messages with placeholders, ``%s`` or Qt's ``%1``, are not
    prose and fall out, a line break between two Chinese or Japanese characters is taken out, a message
    whose English lines are items is left out; ``markup``: Qt rich text, read as plain text by
    ``rich_text``)."""

    def read(root: Path, found: Found) -> None:
        directory = root / base
        if not directory.is_dir():
            return
        for language in LANGUAGE_DIRS:
            directories = tuple(own_directories((p.name for p in directory.iterdir()), language))
            if (mo := first(directory, directories, f"{{}}/LC_MESSAGES/{name}.mo")) is not None:
                for msgid, msgstr in read_mo(mo):
                    if markup:
                        msgid, msgstr = rich_text(msgid), rich_text(msgstr)
                    if not line_items(msgid) and not _QT_PLACEHOLDER.search(msgid):
                        msgstr = _CJK_BREAK.sub("", msgstr)
                        _add_quest(found, language, package, domain or name, msgid, msgstr)

    read.__name__ = name
    return read


xmoto = catalogue("xmoto", "usr/share/games/locale", "xmoto")
lordsawar = catalogue("lordsawar", "usr/share/locale", "lordsawar")
tuxmath = catalogue("tuxmath", "usr/share/locale", "tuxmath")
# KDE's games and learning programs: their tutorials, rules, hints and messages to the player (few messages
# each: one package's units, ``kdegames/games/<bucket>``).
KDE_GAMES = (
    "kblackbox", "kubrick", "ksirk", "kajongg", "killbots", "knights", "kigo", "ksudoku", "kbruch", "kanagram",
    "khangman", "kwordquiz", "kjumpingcube",
)  # fmt: skip
kde_games = tuple(catalogue("kdegames", "usr/share/locale", name, True, "games") for name in KDE_GAMES)

# Neverball's messages break their lines with a backslash; a level set's description closes with its
# difficulty and author, and a set's title is written between equals signs.
_NEVERBALL_LABEL = re.compile(r"^=|Difficulty:|Author:")


def neverball_lines(text: str) -> str:
    """A Neverball message with its backslash line breaks as line breaks, a break between two Chinese or
    Japanese characters taken out."""
    return _CJK_BREAK.sub("", "\n".join(line.strip() for line in text.split("\\") if line.strip()))


def reads_as_french(line: str) -> bool:
    """Whether a line's words are more frequent in French than in English by wordfreq (a level's French
    title left in the English message: ``La ballade dansante.``)."""
    words = re.findall(r"[^\W\d_]+", line.lower())
    if len(words) < 2:
        return False
    french = sum(wordfreq.zipf_frequency(w, "fr") for w in words)
    return french > sum(wordfreq.zipf_frequency(w, "en") for w in words) + len(words)


def neverball(root: Path, found: Found) -> None:
    """Neverball's and Neverputt's level introductions and hints told to the player (``usr/share/locale/
    <language>/LC_MESSAGES/neverball.mo``; a backslash is a line break; a level set's description, its
    difficulty and author, its title between equals signs, and a message whose English keeps a level's
    French title, ``reads_as_french``, are left out)."""
    base = root / "usr/share/locale"
    if not base.is_dir():
        return
    for language in LANGUAGE_DIRS:
        directories = tuple(own_directories((p.name for p in base.iterdir()), language))
        if (mo := first(base, directories, "{}/LC_MESSAGES/neverball.mo")) is not None:
            for msgid, msgstr in read_mo(mo):
                english = neverball_lines(msgid)
                if _NEVERBALL_LABEL.search(msgid) or any(map(reads_as_french, english.splitlines())):
                    continue
                _add_quest(found, language, "neverball", "neverball", english, neverball_lines(msgstr))


# Laby's texts: a block opening with the English (``text``, a tab, the text), then one line per translation
# (``fr_FR.UTF-8``, a tab, the text); a translation line opening with ``#`` is a comment.
_LABY_LINE = re.compile(r"^([\w@]+)(?:\.UTF-8)?\t+(.+)$")


def laby_blocks(text: str) -> Iterator[dict[str, str]]:
    """The blocks of a Laby text file or level section: directory name (``text`` for the English) -> text."""
    for block in re.split(r"\n\s*\n", text):
        lines = {m[1]: m[2] for line in block.splitlines() if (m := _LABY_LINE.match(line))}
        if "text" in lines:
            yield lines


def laby(root: Path, found: Found) -> None:
    """Laby's level stories and messages, the ant robot's maze explained to the child who programs it
    (``usr/share/laby/levels/*.laby``, each level's title and comment, and ``usr/share/laby/texts``, its
    messages; translations by locale, ``fr_FR.UTF-8``)."""
    base = root / "usr/share/laby"
    files = [*sorted((base / "levels").glob("*.laby")), base / "texts"]
    for path in (p for p in files if p.is_file()):
        for block in laby_blocks(path.read_text("utf-8", "replace")):
            english = block["text"]
            for language in LANGUAGE_DIRS:
                for directory in own_directories(block, language)[:1]:
                    _add_quest(found, language, "laby", path.parent.name, english, block[directory])


# INSTEAD's tutorial game, one Lua file per language (``main-<language>.lua``); its Portuguese is Brazil's
# (the game shows Brazil's flag beside it and writes "você", "tela", "mouse").
INSTEAD_LANGUAGES = {"en": "en", "de": "de", "es": "es", "fr": "fr", "it": "it", "nl": "nl", "pt": "pt-BR",
                     "ru": "ru", "uk": "uk"}  # fmt: skip
# A Lua string: long (``[[…]]``) or quoted; a top-level definition of the game (``r1 = room {``); a link
# (``{Next}``, ``{pt|Português}``: the text shown is after the bar).
_LUA_STRING = re.compile(r"\[\[(.*?)\]\]|'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\"", re.S)
_INSTEAD_DEFINITION = re.compile(r"^\w+\s*=\s*\w+\s*\{", re.M)
_INSTEAD_LINK = re.compile(r"\{(?:[^{}|]*\|)?([^{}]*)\}")
# A unit of INSTEAD's tutorial: this many consecutive definitions (rooms and objects).
INSTEAD_BLOCK = 4


def instead_sections(text: str) -> list[list[str]]:
    """The paragraphs of an INSTEAD game file, by blocks of ``INSTEAD_BLOCK`` top-level definitions: each
    string's paragraphs (``^^`` between two, ``^`` a line break), links as their text, comments not read; a
    paragraph whose lines are items (the keys' list, ``line_items``) is kept empty, in its place."""
    text = re.sub(r"^\s*--.*$", "", text, flags=re.M)
    definitions = _INSTEAD_DEFINITION.split(text)[1:]
    sections: list[list[str]] = []
    for at, definition in enumerate(definitions):
        if at % INSTEAD_BLOCK == 0:
            sections.append([])
        for match in _LUA_STRING.finditer(definition):
            string = next(group for group in match.groups() if group is not None)
            string = _INSTEAD_LINK.sub(r"\1", re.sub(r"\\(['\"])", r"\1", string))
            paragraphs = [p.replace("^", "\n") for p in string.split("^^") if p.strip()]
            sections[-1] += ["" if line_items(p) else " ".join(p.split()) for p in paragraphs]
    return sections


def instead(root: Path, found: Found) -> None:
    """INSTEAD's tutorial, an interactive fiction that teaches its player to play one (``usr/share/games/
    instead/games/tutorial3/main-<language>.lua``; each block of definitions a source unit, its paragraphs
    paired with the English's by place when the two files have as many)."""
    base = root / "usr/share/games/instead/games/tutorial3"
    if not (base / "main-en.lua").is_file():
        return
    english = instead_sections((base / "main-en.lua").read_text("utf-8", "replace"))
    words = {w for section in english for p in section for w in shingles(p)}
    for code, language in INSTEAD_LANGUAGES.items():
        if (path := base / f"main-{code}.lua").is_file():
            sections = instead_sections(path.read_text("utf-8", "replace"))
            _add_tutorial(found, language, "instead/tutorial3", sections, english, words)


# Crimson Fields' levels (``.lev``): each language's messages a block, its two-letter code after a NUL, the
# block's length (four bytes, little-endian), then the messages, each byte inverted and each message ended by
# a NUL; the n-th message of each block is one message in every language.
_CRIMSON_BLOCK = re.compile(rb"\x00([a-z]{2})")
# A mission's goals as a numbered list ("1a. Capture the enemy headquarters", "(2) Conquer the base."):
# items, not prose.
_NUMBERED_ITEM = re.compile(r"^\s*(?:\d+[a-z]?\.|\(\d+[a-z]?\))", re.M)


def crimson_messages(data: bytes) -> dict[str, list[str]]:
    """A Crimson Fields level's messages: language code -> its messages in order."""
    out: dict[str, list[str]] = {}
    for match in _CRIMSON_BLOCK.finditer(data):
        at = match.end()
        if at + 4 > len(data):
            continue
        (length,) = struct.unpack_from("<I", data, at)
        body = data[at + 4 : at + 4 + length]
        if length == 0 or len(body) != length or not body.endswith(b"\0"):
            continue
        texts = [bytes(~b & 0xFF for b in message) for message in body[:-1].split(b"\0")]
        try:
            out[match.group(1).decode()] = [text.decode("utf-8") for text in texts]
        except UnicodeDecodeError:
            continue
    return out


def crimson(root: Path, found: Found) -> None:
    """Crimson Fields' missions, their briefings, debriefings and the reports a commander is sent during
    one (``usr/share/games/crimson/levels/*.lev``, read by ``crimson_messages``; each level a source unit,
    a message paired with the English by its place; a mission's numbered goals are items and left out)."""
    for level in sorted((root / "usr/share/games/crimson/levels").glob("*.lev")):
        messages = crimson_messages(level.read_bytes())
        english = messages.get("en", [])
        for language in LANGUAGE_DIRS:
            for code in own_directories(messages, language)[:1]:
                if len(messages[code]) != len(english):
                    continue
                for msgid, msgstr in zip(english, messages[code], strict=True):
                    if not _NUMBERED_ITEM.search(msgid):
                        _add_in_unit(found, f"crimson/{level.stem}", language, msgid, msgstr)


# Dink Smallwood's and The Question's characters speak in short lines: a line of 20 letters is a message.
DIALOGUE_CHARS = 20
# FreeOrion's species and space monsters' descriptions (their lore; not the techs' and buildings' rules).
FREEORION_LORE = re.compile(r"(SP|SM)_\w+_DESC")
SINGULARITY_DOMAINS = ("story.po", "knowledge.po")
# 0 A.D.'s civilisation histories, campaign and map narration and unit histories (not its interface).
ZERO_AD_DOMAINS = ("public-civilizations", "public-gui-campaigns", "public-maps", "public-templates-units")
SETS = {
    "games": (widelands, freeciv, hedgewars, fortunes),
    "rpg": (flare, freedroidrpg),
    "story": (cataclysm, warzone2100, naev, singularity, zero_ad),
    "lore": (freedink, the_question, stellarium, freeorion),
    "tales": (fillets, unknown_horizons, crawl),
    "colony": (freecol, ufoai, lincity),
    "quest": (pingus, supertux, colobot, megaglest, enigma),
    "scroll": (adonthell, kgoldrunner, renpy_tutorial),
    "riddle": (supertuxkart, gbrainy, starfighter),
    "lesson": (gcompris, tuxpaint),
    "tutor": (emacs_tutorial, vimtutor, gnome_games),
    "course": (klavaro, simutrans),
    "tips": (minetest, gramps, openttd, pychess, tuxpaint_stamps, hex_a_hop),
    "levels": (glob2, instead, crimson, neverball, xmoto, lordsawar, laby, tuxmath, *kde_games),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="where the packages were extracted")
    parser.add_argument("--set", choices=sorted(SETS), default="games", help="which sources to read")
    parser.add_argument("--min-chars", type=int, default=300)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    found: Found = defaultdict(dict)
    for source in SETS[args.set]:
        source(args.root, found)
    english = {text for (source, _), text in found["en"].items() if not source.startswith("fortunes")}
    for language, messages in found.items():  # a message left untranslated under another id
        if language != "en":
            found[language] = {key: text for key, text in messages.items() if text not in english}
    if args.set in ("quest", "scroll", "riddle", "lesson", "tutor", "course", "tips", "levels"):
        found = defaultdict(dict, without_borrowed(found))
    if not found:
        print(f"no {args.set} catalogues under {args.root}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = defaultdict(int)
    with args.out.open("w", encoding="utf-8") as out:
        for language in sorted(found):
            for reply in replies(language, found[language], args.min_chars):
                out.write(json.dumps(reply, ensure_ascii=False) + "\n")
                counts[f"{language}:{str(reply['source']).split('/')[0]}"] += 1
    print(" ".join(f"{k}:{v}" for k, v in sorted(counts.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
