"""Integer codes and array offsets for Victus's static components (``components.py``).

Every name the data files use (space kinds, arrow colours, die actions, Bourbon marker
icons, markers, stages) maps to one integer code here; njit kernels compare these codes.
Names are the rulebook's words; a code is the position of its name in the ``*_NAMES`` tuple.
"""

NO_SPACE = -1  # padding in space-index arrays; "no arrow"

# -- space kinds (board.toml `kind`) --------------------------------------------------------
KIND_NAMES = ("bastion", "wall", "inner", "outside", "camp", "trench", "expedition", "box")
KIND_BASTION = 0
KIND_WALL = 1
KIND_INNER = 2
KIND_OUTSIDE = 3
KIND_CAMP = 4
KIND_TRENCH = 5
KIND_EXPEDITION = 6
KIND_BOX = 7
BARCELONA_KINDS = (KIND_BASTION, KIND_WALL, KIND_INNER)

# -- Components.space_info columns (one row per space, int16) -------------------------------
S_KIND = 0  # KIND_*
S_NUMBER = 1  # printed number (11..58), 0 if unnumbered
S_BARCELONA = 2  # 1 for a Barcelona space (bastion, wall, inner)
S_RAMBLA = 3  # 1 if it touches the Rambla
S_YELLOW = 4  # space its yellow arrow points to, NO_SPACE if none
S_RED = 5  # space its red arrow points to, NO_SPACE if none
S_TRENCH = 6  # trench/camp column 0..5 (A..F), -1 if none
S_PARALLEL = 7  # 0 = camp X0, 1..3 = Parallel, -1 if none
S_HOSPITAL = 8  # HOSPITAL_* code, -1 if not a hospital
S_MARKER = 9  # MARKER_* code of the marker tied to this space, -1 if none
S_BATTERY_ICON = 10  # 1 for a camp (every camp carries a Bourbon battery icon)
S_CAMP = 11  # 0..14 index into Components.camps, -1 if not a camp
N_SPACE_INFO = 12

# -- arrows (board.toml `yellow`, `red`; chance.toml advance boxes) -------------------------
COLOUR_NAMES = ("YELLOW", "RED")
YELLOW = 0
RED = 1

# -- trench/camp tiles ----------------------------------------------------------------------
TRENCH_NAMES = ("A", "B", "C", "D", "E", "F")
N_TRENCH = 6
N_POSITIONS = 4  # 0 = camp, 1..3 = 1st..3rd Parallel

HOSPITAL_NAMES = ("infantry", "coronela")
HOSPITAL_INFANTRY = 0  # Saint Cross-14
HOSPITAL_CORONELA = 1  # Saint Mary of the Sea-34

# -- Bourbon action dice (dice.toml faces) ---------------------------------------------------
ACTION_NAMES = ("Reinforcements", "Bombardment", "Advance", "Trench")
ACT_REINFORCEMENTS = 0
ACT_BOMBARDMENT = 1
ACT_ADVANCE = 2
ACT_TRENCH = 3
MAX_INTENSITY = 3

STAGE_NAMES = ("I", "II", "III", "IV")
STAGE_I = 0
STAGE_II = 1
STAGE_III = 2
STAGE_IV = 3

# -- markers (markers.toml) ------------------------------------------------------------------
MARKER_KEYS = ("generalitat", "port", "gunpowder_store", "hospital")
MARKER_GENERALITAT = 0
MARKER_PORT = 1
MARKER_GUNPOWDER_STORE = 2
MARKER_HOSPITAL = 3
N_MARKERS = 4
START_FIRST_GAME = 0  # row of Components.marker_start
START_FULL = 1

SENSE_FURY_GROUPS = ("sense", "centre", "fury")
SENSE_FURY_COLOURS = ("ochre", "red")

# -- Bourbon marker icons: bit flags in Components.track_icons ------------------------------
ICON_NAMES = ("batteries", "healing", "mine", "advance")
ICON_BATTERIES = 1
ICON_HEALING = 2
ICON_MINE = 4  # "mine explodes"
ICON_ADVANCE = 8  # Components.track_advance holds the number of Advance symbols

DISC_NAMES = ("reinforcements", "batteries", "mine")
DISC_REINFORCEMENTS = 0
DISC_BATTERIES = 1
DISC_MINE = 2
