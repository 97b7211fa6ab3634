// BibTeX entries of the works the calculator cites, by key. Every result carries the key of each
// work it cites (`citation_key`: a string, or a list for several works, in the order of its
// `citation`), so the page finds the entries by key and never by reading the citation's text.
// A key the core sends that is missing here is a bug (a browser test exports every section's
// BibTeX and checks that each entry is a real one: authors, title, year and where it appeared).
const entries = {
  dwork2006calibrating: `@inproceedings{dwork2006calibrating,
  author = {Dwork, Cynthia and McSherry, Frank and Nissim, Kobbi and Smith, Adam},
  title = {Calibrating Noise to Sensitivity in Private Data Analysis},
  booktitle = {Theory of Cryptography Conference (TCC)},
  series = {Lecture Notes in Computer Science}, volume = {3876}, pages = {265--284}, year = {2006},
  doi = {10.1007/11681878_14}
}`,
  dwork2010boosting: `@inproceedings{dwork2010boosting,
  author = {Dwork, Cynthia and Rothblum, Guy N. and Vadhan, Salil},
  title = {Boosting and Differential Privacy},
  booktitle = {IEEE Symposium on Foundations of Computer Science (FOCS)}, pages = {51--60}, year = {2010},
  doi = {10.1109/FOCS.2010.12}
}`,
  dwork2014algorithmic: `@article{dwork2014algorithmic,
  author = {Dwork, Cynthia and Roth, Aaron},
  title = {The Algorithmic Foundations of Differential Privacy},
  journal = {Foundations and Trends in Theoretical Computer Science},
  volume = {9}, number = {3--4}, pages = {211--407}, year = {2014},
  doi = {10.1561/0400000042}
}`,
  mcsherry2009privacy: `@inproceedings{mcsherry2009privacy,
  author = {McSherry, Frank},
  title = {Privacy Integrated Queries: An Extensible Platform for Privacy-Preserving Data Analysis},
  booktitle = {ACM SIGMOD International Conference on Management of Data}, pages = {19--30}, year = {2009},
  doi = {10.1145/1559845.1559850}
}`,
  kairouz2015composition: `@inproceedings{kairouz2015composition,
  author = {Kairouz, Peter and Oh, Sewoong and Viswanath, Pramod},
  title = {The Composition Theorem for Differential Privacy},
  booktitle = {International Conference on Machine Learning (ICML)},
  series = {Proceedings of Machine Learning Research}, volume = {37}, pages = {1376--1385}, year = {2015}
}`,
  murtagh2016complexity: `@inproceedings{murtagh2016complexity,
  author = {Murtagh, Jack and Vadhan, Salil},
  title = {The Complexity of Computing the Optimal Composition of Differential Privacy},
  booktitle = {Theory of Cryptography Conference (TCC)},
  series = {Lecture Notes in Computer Science}, volume = {9562}, pages = {157--175}, year = {2016},
  doi = {10.1007/978-3-662-49096-9_7}
}`,
  bun2016concentrated: `@inproceedings{bun2016concentrated,
  author = {Bun, Mark and Steinke, Thomas},
  title = {Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds},
  booktitle = {Theory of Cryptography Conference (TCC)},
  series = {Lecture Notes in Computer Science}, volume = {9985}, pages = {635--658}, year = {2016},
  doi = {10.1007/978-3-662-53641-4_24}
}`,
  vadhan2017complexity: `@incollection{vadhan2017complexity,
  author = {Vadhan, Salil},
  title = {The Complexity of Differential Privacy},
  booktitle = {Tutorials on the Foundations of Cryptography}, publisher = {Springer}, pages = {347--450}, year = {2017},
  doi = {10.1007/978-3-319-57048-8_7}
}`,
  mironov2017renyi: `@inproceedings{mironov2017renyi,
  author = {Mironov, Ilya},
  title = {R{\\'e}nyi Differential Privacy},
  booktitle = {IEEE Computer Security Foundations Symposium (CSF)}, pages = {263--275}, year = {2017},
  doi = {10.1109/CSF.2017.11}
}`,
  wasserman2010statistical: `@article{wasserman2010statistical,
  author = {Wasserman, Larry and Zhou, Shuheng},
  title = {A Statistical Framework for Differential Privacy},
  journal = {Journal of the American Statistical Association},
  volume = {105}, number = {489}, pages = {375--389}, year = {2010},
  doi = {10.1198/jasa.2009.tm08651}
}`,
  balle2018improving: `@inproceedings{balle2018improving,
  author = {Balle, Borja and Wang, Yu-Xiang},
  title = {Improving the {G}aussian Mechanism for Differential Privacy: Analytical Calibration and Optimal Denoising},
  booktitle = {International Conference on Machine Learning (ICML)},
  series = {Proceedings of Machine Learning Research}, volume = {80}, pages = {394--403}, year = {2018}
}`,
  balle2018privacy: `@inproceedings{balle2018privacy,
  author = {Balle, Borja and Barthe, Gilles and Gaboardi, Marco},
  title = {Privacy Amplification by Subsampling: Tight Analyses via Couplings and Divergences},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {31}, year = {2018}
}`,
  mironov2019renyi: `@misc{mironov2019renyi,
  author = {Mironov, Ilya and Talwar, Kunal and Zhang, Li},
  title = {R{\\'e}nyi Differential Privacy of the Sampled {G}aussian Mechanism},
  howpublished = {arXiv preprint arXiv:1908.10530}, year = {2019},
  eprint = {1908.10530}, archivePrefix = {arXiv}
}`,
  dong2019gaussian: `@misc{dong2019gaussian,
  author = {Dong, Jinshuo and Roth, Aaron and Su, Weijie J.},
  title = {{G}aussian Differential Privacy},
  howpublished = {arXiv preprint arXiv:1905.02383}, year = {2019},
  eprint = {1905.02383}, archivePrefix = {arXiv},
  note = {Published in the Journal of the Royal Statistical Society: Series B, 2022}
}`,
  balle2020hypothesis: `@inproceedings{balle2020hypothesis,
  author = {Balle, Borja and Barthe, Gilles and Gaboardi, Marco and Hsu, Justin and Sato, Tetsuya},
  title = {Hypothesis Testing Interpretations and {R}{\\'e}nyi Differential Privacy},
  booktitle = {International Conference on Artificial Intelligence and Statistics (AISTATS)},
  series = {Proceedings of Machine Learning Research}, volume = {108}, pages = {2496--2506}, year = {2020}
}`,
  canonne2020discrete: `@inproceedings{canonne2020discrete,
  author = {Canonne, Cl{\\'e}ment L. and Kamath, Gautam and Steinke, Thomas},
  title = {The Discrete {G}aussian for Differential Privacy},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {33}, year = {2020}
}`,
  koskela2020computing: `@inproceedings{koskela2020computing,
  author = {Koskela, Antti and J{\\"a}lk{\\"o}, Joonas and Honkela, Antti},
  title = {Computing Tight Differential Privacy Guarantees Using {FFT}},
  booktitle = {International Conference on Artificial Intelligence and Statistics (AISTATS)},
  series = {Proceedings of Machine Learning Research}, volume = {108}, pages = {2560--2569}, year = {2020}
}`,
  sommer2021group: `@misc{sommer2021group,
  author = {Sommer, David M.},
  title = {Group Privacy for Deep Learning with Differential Privacy},
  howpublished = {Blog post}, year = {2021},
  url = {https://github.com/sommerda/blog/tree/main/group-privacy-in-deep-learning-with-differential-privacy}
}`,
  doroshenko2022connect: `@article{doroshenko2022connect,
  author = {Doroshenko, Vadym and Ghazi, Badih and Kamath, Pritish and Kumar, Ravi and Manurangsi, Pasin},
  title = {Connect the Dots: Tighter Discrete Approximations of Privacy Loss Distributions},
  journal = {Proceedings on Privacy Enhancing Technologies}, volume = {2022}, number = {4}, pages = {552--570}, year = {2022},
  doi = {10.56553/popets-2022-0122}
}`,
  hartmann2022choice: `@misc{hartmann2022choice,
  author = {Hartmann, Valentin and Bindschaedler, Vincent and West, Robert},
  title = {On the Choice of Databases in Differential Privacy Composition},
  howpublished = {arXiv preprint arXiv:2209.13697}, year = {2022},
  eprint = {2209.13697}, archivePrefix = {arXiv}
}`,
  pujol2023open: `@misc{pujol2023open,
  author = {Pujol, David and Desfontaines, Damien},
  title = {Open Problem: Better Privacy Guarantees for Larger Groups},
  howpublished = {DifferentialPrivacy.org}, year = {2023},
  url = {https://differentialprivacy.org/open-problem-better-privacy-guarantees-for-larger-groups/}
}`,
  schuchardt2024unified: `@inproceedings{schuchardt2024unified,
  author = {Schuchardt, Jan and Stoian, Mihail and Kosmala, Arthur and G{\\"u}nnemann, Stephan},
  title = {Unified Mechanism-Specific Amplification by Subsampling and Group Privacy Amplification},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {37}, year = {2024}
}`,
  durfee2019practical: `@inproceedings{durfee2019practical,
  author = {Durfee, David and Rogers, Ryan},
  title = {Practical Differentially Private Top-k Selection with Pay-what-you-get Composition},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {32}, year = {2019}
}`,
  dong2020optimal: `@inproceedings{dong2020optimal,
  author = {Dong, Jinshuo and Durfee, David and Rogers, Ryan},
  title = {Optimal Differential Privacy Composition for Exponential Mechanisms},
  booktitle = {International Conference on Machine Learning (ICML)},
  series = {Proceedings of Machine Learning Research}, volume = {119}, year = {2020}
}`,
  cesar2021bounding: `@inproceedings{cesar2021bounding,
  author = {Cesar, Mark and Rogers, Ryan},
  title = {Bounding, Concentrating, and Truncating: Unifying Privacy Loss Composition for Data Analytics},
  booktitle = {Algorithmic Learning Theory (ALT)},
  series = {Proceedings of Machine Learning Research}, volume = {132}, pages = {421--457}, year = {2021}
}`,
  wang2019subsampled: `@inproceedings{wang2019subsampled,
  author = {Wang, Yu-Xiang and Balle, Borja and Kasiviswanathan, Shiva Prasad},
  title = {Subsampled R{\\'e}nyi Differential Privacy and Analytical Moments Accountant},
  booktitle = {International Conference on Artificial Intelligence and Statistics (AISTATS)},
  series = {Proceedings of Machine Learning Research}, volume = {89}, pages = {1226--1235}, year = {2019}
}`,
  papernot2022hyperparameter: `@inproceedings{papernot2022hyperparameter,
  author = {Papernot, Nicolas and Steinke, Thomas},
  title = {Hyperparameter Tuning with Renyi Differential Privacy},
  booktitle = {International Conference on Learning Representations (ICLR)}, year = {2022}
}`,
  warner1965randomized: `@article{warner1965randomized,
  author = {Warner, Stanley L.},
  title = {Randomized Response: A Survey Technique for Eliminating Evasive Answer Bias},
  journal = {Journal of the American Statistical Association}, volume = {60}, number = {309}, pages = {63--69},
  year = {1965}, doi = {10.1080/01621459.1965.10480775}
}`,
  ghosh2009universally: `@inproceedings{ghosh2009universally,
  author = {Ghosh, Arpita and Roughgarden, Tim and Sundararajan, Mukund},
  title = {Universally Utility-Maximizing Privacy Mechanisms},
  booktitle = {ACM Symposium on Theory of Computing (STOC)}, pages = {351--360}, year = {2009},
  doi = {10.1145/1536414.1536464}
}`,
  mckenna2020permute: `@inproceedings{mckenna2020permute,
  author = {McKenna, Ryan and Sheldon, Daniel},
  title = {Permute-and-Flip: A New Mechanism for Differentially Private Selection},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {33}, year = {2020}
}`,
  kairouz2021practical: `@inproceedings{kairouz2021practical,
  author = {Kairouz, Peter and McMahan, Brendan and Song, Shuang and Thakkar, Om and Thakurta, Abhradeep and Xu, Zheng},
  title = {Practical and Private (Deep) Learning Without Sampling or Shuffling},
  booktitle = {International Conference on Machine Learning (ICML)},
  series = {Proceedings of Machine Learning Research}, volume = {139}, pages = {5213--5225}, year = {2021}
}`,
  zhu2022optimal: `@inproceedings{zhu2022optimal,
  author = {Zhu, Yuqing and Dong, Jinshuo and Wang, Yu-Xiang},
  title = {Optimal Accounting of Differential Privacy via Characteristic Function},
  booktitle = {International Conference on Artificial Intelligence and Statistics (AISTATS)},
  series = {Proceedings of Machine Learning Research}, volume = {151}, pages = {4782--4817}, year = {2022}
}`,
  ganesh2025tighter: `@misc{ganesh2025tighter,
  author = {Ganesh, Arun},
  title = {Tighter Privacy Analysis for Truncated {P}oisson Sampling},
  howpublished = {arXiv preprint arXiv:2508.15089}, year = {2025},
  eprint = {2508.15089}, archivePrefix = {arXiv}
}`,
  chua2024private: `@inproceedings{chua2024private,
  author = {Chua, Lynn and Ghazi, Badih and Kamath, Pritish and Kumar, Ravi and Manurangsi, Pasin and Sinha, Amer and Zhang, Chiyuan},
  title = {How Private are {DP-SGD} Implementations?},
  booktitle = {International Conference on Machine Learning (ICML)},
  series = {Proceedings of Machine Learning Research}, volume = {235}, year = {2024},
  eprint = {2403.17673}, archivePrefix = {arXiv}
}`,
  chua2024scalable: `@inproceedings{chua2024scalable,
  author = {Chua, Lynn and Ghazi, Badih and Kamath, Pritish and Kumar, Ravi and Manurangsi, Pasin and Sinha, Amer and Zhang, Chiyuan},
  title = {Scalable {DP-SGD}: Shuffling vs. {P}oisson Subsampling},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {37}, year = {2024},
  eprint = {2411.04205}, archivePrefix = {arXiv}
}`,
  choquettechoo2023amplified: `@inproceedings{choquettechoo2023amplified,
  author = {Choquette-Choo, Christopher A. and Ganesh, Arun and McKenna, Ryan and McMahan, H. Brendan and Rush, Keith and Thakurta, Abhradeep Guha and Xu, Zheng},
  title = {(Amplified) Banded Matrix Factorization: A unified approach to private training},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {36}, year = {2023},
  eprint = {2306.08153}, archivePrefix = {arXiv}
}`,
  feldman2025privacy: `@misc{feldman2025privacy,
  author = {Feldman, Vitaly and Shenfeld, Moshe},
  title = {Privacy Amplification by Random Allocation},
  howpublished = {arXiv preprint arXiv:2502.08202}, year = {2025},
  eprint = {2502.08202}, archivePrefix = {arXiv}
}`,
  feldman2026efficient: `@misc{feldman2026efficient,
  author = {Feldman, Vitaly and Shenfeld, Moshe},
  title = {Efficient Privacy Loss Accounting for Subsampling and Random Allocation},
  howpublished = {arXiv preprint arXiv:2602.17284}, year = {2026},
  eprint = {2602.17284}, archivePrefix = {arXiv}
}`,
  clopper1934use: `@article{clopper1934use,
  author = {Clopper, C. J. and Pearson, E. S.},
  title = {The Use of Confidence or Fiducial Limits Illustrated in the Case of the Binomial},
  journal = {Biometrika}, volume = {26}, number = {4}, pages = {404--413}, year = {1934},
  doi = {10.1093/biomet/26.4.404}
}`,
  jagielski2020auditing: `@inproceedings{jagielski2020auditing,
  author = {Jagielski, Matthew and Ullman, Jonathan and Oprea, Alina},
  title = {Auditing Differentially Private Machine Learning: How Private is Private {SGD}?},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {33}, year = {2020}
}`,
  nasr2021adversary: `@inproceedings{nasr2021adversary,
  author = {Nasr, Milad and Song, Shuang and Thakurta, Abhradeep and Papernot, Nicolas and Carlini, Nicholas},
  title = {Adversary Instantiation: Lower Bounds for Differentially Private Machine Learning},
  booktitle = {IEEE Symposium on Security and Privacy (S\\&P)}, pages = {866--882}, year = {2021}
}`,
  nasr2023tight: `@inproceedings{nasr2023tight,
  author = {Nasr, Milad and Hayes, Jamie and Steinke, Thomas and Balle, Borja and Tram{\\\`e}r, Florian and Jagielski, Matthew and Carlini, Nicholas and Terzis, Andreas},
  title = {Tight Auditing of Differentially Private Machine Learning},
  booktitle = {USENIX Security Symposium}, pages = {1631--1648}, year = {2023}
}`,
  // The fields of the deployment record export (export.js) follow this registry's schema.
  nanayakkara2025practitioners: `@misc{nanayakkara2025practitioners,
  author = {Nanayakkara, Priyanka and Ghazi, Elena and Vadhan, Salil},
  title = {Practitioners' Perspectives on a Differential Privacy Deployment Registry},
  howpublished = {arXiv preprint 2509.13509}, year = {2025},
  doi = {10.48550/arXiv.2509.13509}
}`,
  steinke2023privacy: `@inproceedings{steinke2023privacy,
  author = {Steinke, Thomas and Nasr, Milad and Jagielski, Matthew},
  title = {Privacy Auditing with One (1) Training Run},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, volume = {36}, year = {2023}
}`,
};

/** Whether `key` has an entry here. */
export const hasEntry = (key) => Object.hasOwn(entries, key);

/** The BibTeX of every work in `keys` (each once, in the order first cited). */
export function bibtexOf(keys) {
  return [...new Set(keys)]
    .map((key) => entries[key] ?? `% No BibTeX entry for the key "${key}": please report this.`)
    .join('\n\n');
}
