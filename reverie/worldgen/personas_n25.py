"""The 25 residents of the grown Willow Creek: the three of the small town, unchanged, and
22 neighbors whose households, jobs, friendships and rivalries cross each other's days."""

from __future__ import annotations

from reverie.worldgen.personas_data import PERSONAS as FIRST_THREE
from reverie.worldgen.personas_data import PUBLIC, PersonaData
from reverie.worldgen.town_n25 import APARTMENTS

SCHOOL, LIBRARY = "Willow Creek School", "Willow Creek Library"
PUBLIC_N25 = PUBLIC + (SCHOOL, LIBRARY)
HALE, OKAFOR, BRENNAN, SATO = (
    "Hale family's house",
    "Okafor family's house",
    "Brennan family's house",
    "Sato family's house",
)

SKINS = ((246, 214, 186), (236, 196, 160), (200, 150, 110), (160, 110, 80), (110, 72, 50), (226, 184, 140))
HAIRS = ((40, 32, 30), (150, 70, 40), (232, 196, 96), (90, 60, 40), (200, 200, 200), (20, 20, 24), (170, 40, 40))
CLOTHES = (
    (196, 84, 80),
    (70, 120, 170),
    (110, 170, 110),
    (220, 180, 80),
    (140, 90, 160),
    (60, 150, 150),
    (230, 140, 60),
    (90, 90, 100),
    (200, 120, 150),
    (120, 80, 60),
)
PANTS = ((70, 70, 90), (110, 90, 70), (60, 80, 130), (50, 50, 55), (130, 120, 100))


def _look(skin: int, hair: int, long_hair: bool, shirt: int, pants: int) -> dict:
    return {
        "skin": SKINS[skin],
        "hair": HAIRS[hair],
        "long_hair": long_hair,
        "shirt": CLOTHES[shirt],
        "pants": PANTS[pants],
    }


def _p(name, age, innate, learned, currently, lifestyle, plan, home, arena, spawn, knows, whispers, look):
    return PersonaData(
        name=name,
        age=age,
        innate=innate,
        learned=learned,
        currently=currently,
        lifestyle=lifestyle,
        daily_plan_req=plan,
        home=home,
        living_arena=arena,
        knows=tuple(knows),
        spawn=spawn,
        whispers=tuple(whispers),
        look=look,
    )


def _flat(name, age, innate, learned, currently, lifestyle, plan, knows, whispers, look):
    return _p(
        name,
        age,
        innate,
        learned,
        currently,
        lifestyle,
        plan,
        APARTMENTS,
        f"{name}'s room",
        "sp-A",
        PUBLIC_N25 + tuple(knows),
        whispers,
        look,
    )


NEIGHBORS = (
    # The Hales
    _p(
        "Daniel Hale",
        44,
        "steady, dutiful, dry-humored",
        "Daniel Hale is the principal of Willow Creek School. He has lived in Willow Creek all his life.",
        "Daniel Hale is preparing the school's spring open day and worries the roof of the classroom leaks.",
        "Daniel Hale goes to bed around 10pm, wakes up around 6am and jogs in the park before breakfast.",
        "Daniel Hale works at Willow Creek School from 8am to 4pm.",
        HALE,
        "bedroom",
        "sp-A",
        PUBLIC_N25,
        (
            "Maya Hale is your wife and Milo Hale is your fifteen-year-old son",
            "Marcus Reed repaired the school's fence last autumn and you trust his work",
            "Aiko Sato and Priya Nair are teachers at your school",
        ),
        _look(1, 3, False, 1, 3),
    ),
    _p(
        "Maya Hale",
        42,
        "gentle, bookish, precise",
        "Maya Hale is the librarian of Willow Creek Library, where she runs a reading club on Thursdays.",
        "Maya Hale is cataloguing a donation of old town newspapers for the library.",
        "Maya Hale goes to bed around 10pm and wakes up around 6am.",
        "Maya Hale works at Willow Creek Library from 9am to 5pm.",
        HALE,
        "bedroom",
        "sp-B",
        PUBLIC_N25,
        (
            "Daniel Hale is your husband and Milo Hale is your son",
            "Leah Kim is your assistant at the library and a close friend",
            "Hazel Quinn volunteers at the library every morning",
        ),
        _look(0, 1, True, 4, 2),
    ),
    _p(
        "Milo Hale",
        15,
        "restless, funny, sporty",
        "Milo Hale is a student at Willow Creek School who plays football in the park after school.",
        "Milo Hale is trying to get a place on the regional youth football team.",
        "Milo Hale goes to bed around 11pm and wakes up around 7am.",
        "Milo Hale goes to Willow Creek School from 8am to 3pm.",
        HALE,
        "Milo Hale's room",
        "sp-A",
        PUBLIC_N25,
        (
            "Daniel Hale and Maya Hale are your parents; your father is the principal of your school",
            "Zara Okafor is in your school and you argue about football",
            "Jonas Berg lets you practice on the park's lawn",
        ),
        _look(1, 3, False, 0, 2),
    ),
    # The Okafors
    _p(
        "Grace Okafor",
        38,
        "confident, ambitious, sharp",
        "Grace Okafor has sat on the Willow Creek town council for four years and has an office at the town hall.",
        "Grace Okafor wants to be re-elected to the town council and is working on the town budget.",
        "Grace Okafor goes to bed around 11pm and wakes up around 6am.",
        "Grace Okafor works at Willow Creek Town Hall from 9am to 6pm.",
        OKAFOR,
        "bedroom",
        "sp-A",
        PUBLIC_N25 + (HALE,),
        (
            "Ben Okafor is your husband and Zara Okafor is your twelve-year-old daughter",
            "You and Marcus Reed disagree about how the town should spend its budget",
            "Theo Alvarez and Clara Mendes work with you at the town hall",
        ),
        _look(4, 5, True, 5, 3),
    ),
    _p(
        "Ben Okafor",
        40,
        "easygoing, generous, loud",
        "Ben Okafor is the cook at Willow Creek School and makes lunch for the pupils every day.",
        "Ben Okafor is collecting recipes from his neighbors for a town cookbook.",
        "Ben Okafor goes to bed around 10pm and wakes up around 5am.",
        "Ben Okafor works in the kitchen of Willow Creek School from 7am to 2pm.",
        OKAFOR,
        "bedroom",
        "sp-B",
        PUBLIC_N25 + (SATO,),
        (
            "Grace Okafor is your wife and Zara Okafor is your daughter",
            "Ken Sato is your best friend; you trade recipes with him",
            "Nora Bennett promised you her lemon cake recipe for the cookbook",
        ),
        _look(4, 5, False, 6, 0),
    ),
    _p(
        "Zara Okafor",
        12,
        "clever, stubborn, curious",
        "Zara Okafor is a student at Willow Creek School who loves science and borrows books from the library.",
        "Zara Okafor is building a model of the pond's ecosystem for the school science fair.",
        "Zara Okafor goes to bed around 9pm and wakes up around 7am.",
        "Zara Okafor goes to Willow Creek School from 8am to 3pm.",
        OKAFOR,
        "Zara Okafor's room",
        "sp-A",
        PUBLIC_N25,
        (
            "Grace Okafor and Ben Okafor are your parents",
            "Milo Hale is in your school and teases you about science",
            "Maya Hale helps you find books about ponds at the library",
        ),
        _look(4, 5, True, 8, 2),
    ),
    # The Brennans
    _p(
        "Walter Brennan",
        71,
        "stubborn, proud, kind underneath",
        "Walter Brennan is a retired carpenter who has lived in Willow Creek for fifty years.",
        "Walter Brennan is against Theo Alvarez's footbridge because he thinks it would spoil the pond.",
        "Walter Brennan goes to bed around 9pm and wakes up around 5am.",
        "Walter Brennan is retired and reads the newspaper at Willow Bean Cafe every morning.",
        BRENNAN,
        "bedroom",
        "sp-A",
        PUBLIC_N25,
        (
            "June Brennan is your wife of forty-five years",
            "Marcus Reed was your apprentice when he was young",
            "You think Theo Alvarez's footbridge is a waste of the town's money",
        ),
        _look(0, 4, False, 9, 4),
    ),
    _p(
        "June Brennan",
        69,
        "cheerful, nurturing, nosy",
        "June Brennan is a retired teacher who volunteers as a gardener in Willow Creek Park.",
        "June Brennan is planting tulips along the park paths before spring.",
        "June Brennan goes to bed around 9pm and wakes up around 6am.",
        "June Brennan gardens in Willow Creek Park from 9am to noon.",
        BRENNAN,
        "bedroom",
        "sp-B",
        PUBLIC_N25 + (HALE,),
        (
            "Walter Brennan is your husband",
            "Jonas Berg is the park's groundskeeper and you garden with him",
            "You taught Daniel Hale when he was a boy",
        ),
        _look(0, 4, True, 3, 4),
    ),
    # The Satos
    _p(
        "Ken Sato",
        33,
        "calm, meticulous, friendly",
        "Ken Sato is a barista at Willow Bean Cafe and roasts the cafe's coffee beans himself.",
        "Ken Sato is experimenting with a new house blend for the cafe.",
        "Ken Sato goes to bed around 10pm and wakes up around 5am.",
        "Ken Sato works at Willow Bean Cafe from 6am to 2pm.",
        SATO,
        "bedroom",
        "sp-A",
        PUBLIC_N25 + (OKAFOR,),
        (
            "Aiko Sato is your wife",
            "Nora Bennett owns the cafe where you work and Ruby Castillo works the afternoon shift",
            "Ben Okafor is your best friend",
        ),
        _look(5, 5, False, 7, 3),
    ),
    _p(
        "Aiko Sato",
        31,
        "patient, artistic, organized",
        "Aiko Sato teaches art and music at Willow Creek School.",
        "Aiko Sato is rehearsing a spring concert with her pupils.",
        "Aiko Sato goes to bed around 11pm and wakes up around 6am.",
        "Aiko Sato works at Willow Creek School from 8am to 4pm.",
        SATO,
        "bedroom",
        "sp-B",
        PUBLIC_N25,
        (
            "Ken Sato is your husband",
            "Iris Novak is a painter and you want her to visit your art class",
            "Priya Nair teaches with you and is your friend",
        ),
        _look(5, 5, True, 8, 1),
    ),
    # The flats
    _flat(
        "Owen Price",
        27,
        "hardworking, quiet, reliable",
        "Owen Price stocks the shelves and does deliveries for Creek Corner Shop.",
        "Owen Price is saving money to buy a small van.",
        "Owen Price goes to bed around 11pm and wakes up around 6am.",
        "Owen Price works at Creek Corner Shop from 7am to 3pm.",
        (),
        (
            "Sam Whitaker owns the shop where you work",
            "Lucy Tran and Iris Novak work at the shop with you",
            "Dev Patel lives next door to you at Creekside Apartments",
        ),
        _look(2, 0, False, 2, 1),
    ),
    _flat(
        "Leah Kim",
        34,
        "thoughtful, witty, reserved",
        "Leah Kim is the assistant librarian at Willow Creek Library and writes poetry.",
        "Leah Kim is organizing a poetry evening at the library.",
        "Leah Kim goes to bed around midnight and wakes up around 8am.",
        "Leah Kim works at Willow Creek Library from 10am to 6pm.",
        (),
        (
            "Maya Hale is your boss at the library and a close friend",
            "Felix Grant writes at the library and you read his drafts",
            "You go to Willow Bean Cafe after work",
        ),
        _look(5, 5, True, 5, 0),
    ),
    _flat(
        "Sam Whitaker",
        52,
        "practical, jovial, stubborn",
        "Sam Whitaker owns Creek Corner Shop and knows the gossip of the whole town.",
        "Sam Whitaker is thinking about selling local produce at the shop.",
        "Sam Whitaker goes to bed around 10pm and wakes up around 5am.",
        "Sam Whitaker works at Creek Corner Shop from 7am to 6pm.",
        (),
        (
            "Owen Price, Lucy Tran and Iris Novak work in your shop",
            "Walter Brennan is an old friend and buys his newspaper from you",
            "You think Grace Okafor has done a good job on the council",
        ),
        _look(1, 4, False, 9, 4),
    ),
    _flat(
        "Priya Nair",
        29,
        "energetic, kind, idealistic",
        "Priya Nair teaches science at Willow Creek School.",
        "Priya Nair is running the school science fair this spring.",
        "Priya Nair goes to bed around 11pm and wakes up around 6am.",
        "Priya Nair works at Willow Creek School from 8am to 4pm.",
        (),
        (
            "Zara Okafor is the most curious pupil in your science class",
            "Aiko Sato is your friend and colleague",
            "Dev Patel and you play chess at the cafe on Fridays",
        ),
        _look(3, 5, True, 0, 2),
    ),
    _flat(
        "Felix Grant",
        36,
        "dreamy, moody, observant",
        "Felix Grant is a novelist who writes at Willow Creek Library and Willow Bean Cafe.",
        "Felix Grant is writing a mystery novel set in a small town much like Willow Creek.",
        "Felix Grant goes to bed around 1am and wakes up around 9am.",
        "Felix Grant writes from 10am to 4pm, at the library or the cafe.",
        (),
        (
            "Leah Kim reads your drafts",
            "You suspect Ruby Castillo would make a good character for your novel",
            "Walter Brennan tells you stories about the town's past",
        ),
        _look(0, 0, False, 7, 3),
    ),
    _flat(
        "Ruby Castillo",
        25,
        "outgoing, dramatic, warm",
        "Ruby Castillo works the afternoon shift at Willow Bean Cafe and sings in the evenings.",
        "Ruby Castillo is practicing songs for an open-mic night.",
        "Ruby Castillo goes to bed around 1am and wakes up around 9am.",
        "Ruby Castillo works at Willow Bean Cafe from noon to 8pm.",
        (),
        (
            "Nora Bennett is your boss at the cafe and Ken Sato works the morning shift",
            "Lucy Tran is your best friend",
            "Felix Grant stares at you while he writes in the cafe",
        ),
        _look(2, 6, True, 0, 3),
    ),
    _flat(
        "Jonas Berg",
        45,
        "quiet, patient, outdoorsy",
        "Jonas Berg is the groundskeeper of Willow Creek Park.",
        "Jonas Berg is worried about the ducks on the pond and repairs the park benches.",
        "Jonas Berg goes to bed around 9pm and wakes up around 5am.",
        "Jonas Berg works in Willow Creek Park from 7am to 3pm.",
        (),
        (
            "June Brennan gardens in the park with you",
            "Theo Alvarez asked your opinion on the footbridge",
            "Milo Hale practices football on your lawn",
        ),
        _look(0, 2, False, 2, 1),
    ),
    _flat(
        "Clara Mendes",
        31,
        "efficient, loyal, anxious",
        "Clara Mendes is the clerk of Willow Creek Town Hall and keeps the town's records.",
        "Clara Mendes is preparing the paperwork for next month's town council election.",
        "Clara Mendes goes to bed around 11pm and wakes up around 6am.",
        "Clara Mendes works at Willow Creek Town Hall from 8am to 4pm.",
        (),
        (
            "Grace Okafor is a council member and your boss",
            "Theo Alvarez works at the town hall with you",
            "Hazel Quinn was your neighbor when you were a child",
        ),
        _look(2, 1, True, 4, 0),
    ),
    _flat(
        "Dev Patel",
        26,
        "analytical, shy, helpful",
        "Dev Patel is a software developer who works remotely, often from Willow Bean Cafe.",
        "Dev Patel is building a website for the town's events.",
        "Dev Patel goes to bed around midnight and wakes up around 8am.",
        "Dev Patel works on his laptop from 9am to 5pm.",
        (),
        (
            "Owen Price is your neighbor at Creekside Apartments",
            "Priya Nair plays chess with you at the cafe",
            "Theo Alvarez asked you to put the footbridge proposal online",
        ),
        _look(3, 5, False, 1, 3),
    ),
    _flat(
        "Hazel Quinn",
        58,
        "wise, talkative, caring",
        "Hazel Quinn is a retired nurse who volunteers at Willow Creek Library in the mornings.",
        "Hazel Quinn is organizing a first aid class for the town.",
        "Hazel Quinn goes to bed around 10pm and wakes up around 6am.",
        "Hazel Quinn volunteers at Willow Creek Library from 9am to noon.",
        (),
        (
            "Maya Hale runs the library where you volunteer",
            "Clara Mendes grew up next door to you",
            "You walk in the park with June Brennan in the afternoons",
        ),
        _look(1, 4, True, 6, 4),
    ),
    _flat(
        "Marcus Reed",
        47,
        "determined, blunt, community-minded",
        "Marcus Reed is a carpenter who fixes things all over Willow Creek.",
        "Marcus Reed thinks the town should spend more on repairs and less on new projects.",
        "Marcus Reed goes to bed around 10pm and wakes up around 6am.",
        "Marcus Reed works on repair jobs around town from 8am to 5pm.",
        (),
        (
            "Walter Brennan taught you carpentry",
            "You disagree with Grace Okafor about the town budget",
            "Daniel Hale asked you to look at the leaking school roof",
        ),
        _look(2, 3, False, 9, 1),
    ),
    _flat(
        "Lucy Tran",
        22,
        "bubbly, curious, impatient",
        "Lucy Tran works mornings at Creek Corner Shop and studies design online.",
        "Lucy Tran is designing posters for local events.",
        "Lucy Tran goes to bed around midnight and wakes up around 7am.",
        "Lucy Tran works at Creek Corner Shop from 8am to 1pm.",
        (),
        (
            "Ruby Castillo is your best friend",
            "Sam Whitaker owns the shop where you work",
            "Iris Novak works the afternoon shift after you",
        ),
        _look(5, 5, True, 3, 2),
    ),
)

PERSONAS_N25 = FIRST_THREE + NEIGHBORS
assert len(PERSONAS_N25) == 25

# Seeds, the original's way: a fact in one persona's `currently` (its identity, in every prompt
# of that persona), and what evaluation asks about it: the paper's questions, the candidacy
# asked openly (known when the answer names Marcus, the only one). The run starts on
# February 13, so the party is on the second day; the event says where and when it is (the code puts it into
# Nora's plan only with `force_seed_plan`).
SEEDS = (
    {
        "persona": "Marcus Reed",
        "currently": (
            "Marcus Reed is running for the Willow Creek town council in next month's election, "
            "and he tells his neighbors about his candidacy whenever he talks with them."
        ),
        "question": "Do you know who is running for the town council?",
        "answer": ["Marcus Reed", "Marcus"],
        "fact": "Marcus Reed is running for the town council",
        "keywords": ["run", "council"],
    },
    {
        "persona": "Nora Bennett",
        "currently": (
            "Nora Bennett is throwing a Valentine's Day party at Willow Bean Cafe on February 14, 2023, "
            "from 5 pm to 7 pm. Nora is getting the cafe ready for it and asks everyone she meets to come "
            "to the party at Willow Bean Cafe on February 14, 2023, from 5 pm to 7 pm."
        ),
        "question": "Did you know there is a Valentine's Day party?",
        "fact": "there is a Valentine's Day party at Willow Bean Cafe",
        "keywords": ["party"],
        "event": {
            "sector": "Willow Bean Cafe",
            "arena": "cafe",
            "day": "February 14, 2023",
            "start": "17:00",
            "end": "19:00",
            "description": "hosting the Valentine's Day party at the cafe",
        },
    },
)
